import { type Browser, expect, type Page } from '@playwright/test'
import { mailsTo } from './mailbox.ts'

export interface Person {
  firstName: string
  lastName: string
  email: string
  password: string
}

export function newPerson(firstName: string): Person {
  return {
    firstName,
    lastName: 'Tester',
    email: `${firstName.toLowerCase()}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`,
    password: 'correct horse 42',
  }
}

/** The tests that sign in as an admin, each with addresses of its own. */
export const adminSlots = ['console', 'clients', 'cases', 'chargebacks', 'webhooks'] as const

/**
 * An address the e2e server lists in ADMIN_EMAILS (playwright.config.ts),
 * one per test and attempt: a retry cannot register the first one again,
 * and two admin tests may run at once.
 */
export function adminPerson(attempt: number, slot: (typeof adminSlots)[number] = 'console'): Person {
  return { firstName: 'Ada', lastName: 'Admin', email: adminEmail(slot, attempt), password: 'correct horse 42' }
}

export function adminEmail(slot: (typeof adminSlots)[number], attempt: number): string {
  return slot === 'console' ? `admin.e2e.${attempt}@pactum.test` : `admin.${slot}.e2e.${attempt}@pactum.test`
}

/** Fills the embedded sign-in's registration form and sends it: the page then says to check the inbox. */
export async function submitRegistration(page: Page, person: Person): Promise<void> {
  await page.getByLabel('First name').fill(person.firstName)
  await page.getByLabel('Last name').fill(person.lastName)
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByLabel('Password').fill(person.password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Check your inbox' })).toBeVisible()
}

/** The link that finishes the registration, from the newest such e-mail to the address (the server's file mailer). */
export async function registrationLink(email: string): Promise<string> {
  let link: string | undefined
  await expect(async () => {
    const mails = await mailsTo(email)
    link = mails
      .map((mail) => mail.text.match(/https?:\/\/\S+\/complete-registration\/\S+/)?.[0])
      .filter((found) => found !== undefined)
      .at(-1)
    expect(link, `a registration link e-mailed to ${email}`).toBeTruthy()
  }).toPass({ timeout: 10_000 })
  return link!
}

/**
 * Opens the e-mailed link in this page and presses its button: in the
 * browser the registration began in, the person lands signed in in the app.
 */
export async function finishRegistrationFromMail(page: Page, person: Person): Promise<void> {
  await page.goto(await registrationLink(person.email))
  await page.getByRole('button', { name: 'Create my account' }).click()
}

/**
 * A fresh browser context (own cookies and storage) with a newly registered
 * person signed in, living in `country` (as the country dialog names it in
 * English).
 *
 * The registration goes through the pages, as a person's does. The country,
 * the terms and the guided tour are answered through the API with the
 * person's own token, and the page reloaded: the dialogs themselves are
 * tested where they are the subject (shell, onboarding, newcomer and tour
 * specs, with `completeCountryAndTerms`). Through the dialogs each person
 * cost about 4.5 s here, 2 s of it the spec's wait before the country
 * prompt (§8), and the browser tests sign up about sixty people.
 */
export async function registeredPerson(browser: Browser, person: Person, country = 'Ireland'): Promise<Page> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto('/register')
  await submitRegistration(page, person)
  await finishRegistrationFromMail(page, person)
  await expect(page).toHaveURL(/\/transactions$/)
  await answerOnboardingThroughApi(page, country)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'My transactions' })).toBeVisible()
  return page
}

/** What the country-and-terms dialog and the tour's "Skip tour" send, sent with the signed-in person's token. */
async function answerOnboardingThroughApi(page: Page, country: string): Promise<void> {
  const authorization = `Bearer ${await accessTokenOf(page)}`
  const send = async (path: string, data?: object) => {
    const response = await page.request.post(`/api/v1${path}`, { headers: { authorization }, data })
    expect(response.ok(), `POST ${path} answered ${response.status()}: ${await response.text()}`).toBe(true)
  }
  await send('/me/personal/set_active_country', { country_code: await countryCode(page, country) })
  await send('/me/accept_tos_direct')
  await send('/me/guided_tour/seen')
}

/** The code of a supported country, from its English name as the dialog shows it. */
async function countryCode(page: Page, name: string): Promise<string> {
  const response = await page.request.get('/api/v1/supported_countries')
  const countries = (await response.json()) as { code: string; name: string }[]
  const englishName = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })
  const found = countries.find((country) => (englishName.of(country.code.toUpperCase()) ?? country.name) === name)
  if (!found) throw new Error(`${name} is not a supported country`)
  return found.code
}

/** The signed-in person's access token, as the web app keeps it (oidc-client-ts in localStorage). */
export async function accessTokenOf(page: Page): Promise<string> {
  let token: string | undefined
  await expect(async () => {
    token = await page.evaluate(() => {
      for (let index = 0; index < localStorage.length; index += 1) {
        const key = localStorage.key(index)
        if (key?.startsWith('oidc.user:')) return (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token
      }
      return undefined
    })
    expect(token, 'an access token in the browser').toBeTruthy()
  }).toPass({ timeout: 10_000 })
  return token!
}

/**
 * Signs out from the menu and gives the person's address and password on
 * the sign-in page; the caller says what should follow (the app, or the
 * second step of an account with a second factor).
 */
export async function signOutAndGivePassword(page: Page, person: Person): Promise<void> {
  await page.getByTestId('logout-button').click()
  // The provider ends its session without asking, and the signed-out app sends the visitor to sign in.
  await page.waitForURL(/\/oidc\/interaction\//)
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByLabel('Password').fill(person.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

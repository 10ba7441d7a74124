import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { completeCountryAndTerms } from '../support/onboarding.ts'
import { finishRegistrationFromMail, submitRegistration } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { test } from '../support/test.ts'

/**
 * The foundation, as a person meets it: register through the embedded
 * sign-in, land in the app shell, keep the session over a reload, change the
 * language, walk the menu, and sign out.
 */
test.describe.configure({ mode: 'serial' })

const person = {
  firstName: 'Anna',
  lastName: 'Kowalska',
  email: `anna.${Date.now()}@example.com`,
  password: 'correct horse 42',
}

async function registerThroughTheUi(page: Page) {
  await page.goto('/register')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page).toHaveURL(/\/oidc\//)
  await submitRegistration(page, person)
  await finishRegistrationFromMail(page, person)
  await expect(page).toHaveURL(/\/transactions$/)
}

test('a new person registers, chooses a country and lands on their transactions, greeted by first name', async ({ page }) => {
  await registerThroughTheUi(page)
  await expect(page.getByTestId('country-dialog')).toBeVisible()
  await keepScreenshot(page, 'country-dialog')
  await expectNoAxeViolations(page, 'the country dialog')
  // Submitting needs both a country and the agreement.
  await expect(page.getByTestId('country-dialog-submit')).toBeDisabled()
  await completeCountryAndTerms(page)
  await expect(page).toHaveURL(/\/transactions$/)
  await expect(page.getByTestId('welcome-line')).toHaveText('Welcome, Anna!')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('My transactions')
  await keepScreenshot(page, 'shell-desktop')
  await expectNoAxeViolations(page, 'the app shell')

  // A reload keeps the session.
  await page.reload()
  await expect(page.getByTestId('welcome-line')).toHaveText('Welcome, Anna!')
  await expect(page).toHaveURL(/\/transactions$/)
})

test('every menu entry opens its page, and an unknown path lands on my transactions', async ({ page }) => {
  await signIn(page)
  const menu = page.getByRole('navigation', { name: 'Main menu' })
  const entries = [
    ['menu-create-transaction', /\/create-transaction$/],
    ['menu-join-transaction', /\/join-transaction$/],
    ['menu-my-profile', /\/profile\/details$/],
    ['menu-my-transactions', /\/transactions$/],
  ] as const
  for (const [testId, url] of entries) {
    await menu.getByTestId(testId).click()
    await expect(page).toHaveURL(url)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(menu.getByTestId(testId)).toHaveAttribute('aria-current', 'page')
    await expectNoAxeViolations(page, `the page behind ${testId}`)
  }
  await page.goto('/this/does/not/exist')
  await expect(page).toHaveURL(/\/transactions$/)

  // A page longer than the window: the sidebar's panel runs its whole height (issue 33 item 14).
  await page.setViewportSize({ width: 1280, height: 400 })
  await page.goto('/create-transaction')
  // The page itself, not the loading screen, whose title is a heading of level 1 too: measured on that
  // screen, the document was exactly the window's height (CI, 2026-12-07).
  await expect(page.getByRole('heading', { level: 1, name: 'Create transaction' })).toBeVisible()
  await expect(page.getByTestId('role-seller')).toBeVisible()
  // The fixed panel is one window high; the column under it is painted the same, down to the page's end.
  const { column, background, document } = await page.evaluate(() => {
    const element = window.document.querySelector('[data-testid="sidebar-column"]')
    return {
      column: element?.getBoundingClientRect().height ?? 0,
      background: element ? getComputedStyle(element).backgroundColor : '',
      document: window.document.documentElement.scrollHeight,
    }
  })
  expect(document).toBeGreaterThan(400)
  expect(column).toBeGreaterThanOrEqual(document)
  expect(background).toBe('rgb(255, 255, 255)')
})

test('the chosen language is kept over a reload', async ({ page }) => {
  await signIn(page)
  await page.getByTestId('language-picker').selectOption('pl_pl')
  const menu = page.getByRole('navigation', { name: /./ }).filter({ has: page.getByTestId('menu-my-transactions') })
  await expect(menu.getByTestId('menu-my-transactions')).toHaveText(/Moje transakcje/)
  await page.reload()
  await expect(menu.getByTestId('menu-create-transaction')).toHaveText(/Utwórz transakcję/)
  await expect(menu.getByTestId('menu-join-transaction')).toHaveText(/Dołącz do transakcji/)
  await expect(menu.getByTestId('menu-my-profile')).toHaveText(/Mój profil/)
  await expect(page.getByTestId('welcome-line')).toHaveText('Witaj, Anna!')
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl-PL')
  const cookie = (await page.context().cookies()).find((c) => c.name === 'locale')
  expect(cookie?.value).toBe('pl_pl')
  // The app asks for 3650 days (a unit test checks the cookie it writes);
  // Chromium caps every cookie at 400 days, so that is what it keeps.
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(399 * 24 * 3600 * 1000)
  await page.getByTestId('language-picker').selectOption('en_gb')
})

test('the shell works on a phone-sized screen', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  await signIn(page)
  await expect(page.getByTestId('welcome-line')).toBeHidden()
  await keepScreenshot(page, 'shell-phone')
  await page.getByTestId('open-menu-button').click()
  await expect(page.getByTestId('welcome-line')).toHaveText('Welcome, Anna!')
  await keepScreenshot(page, 'shell-phone-menu')
  await expectNoAxeViolations(page, 'the mobile menu')
  await page.getByTestId('menu-join-transaction').click()
  await expect(page).toHaveURL(/\/join-transaction$/)

  // Nothing wraps into broken pieces at 390 px: the sale's two kinds share one row, the profile tabs keep theirs.
  await page.goto('/create-transaction')
  const online = await page.getByTestId('mode-online').boundingBox()
  const face = await page.getByTestId('mode-face').boundingBox()
  expect(online?.y).toBe(face?.y)
  expect((face?.x ?? 0) + (face?.width ?? 0)).toBeLessThanOrEqual(390)
  await keepScreenshot(page, 'create-modes-phone')
  await page.goto('/profile/details')
  const tabs = page.getByRole('navigation', { name: 'Profile sections' }).getByRole('link')
  await expect(tabs).toHaveCount(4)
  const tops = await tabs.evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)))
  expect(new Set(tops).size).toBe(1)
  await keepScreenshot(page, 'profile-tabs-phone')
  await context.close()
})

test('one click signs out: no question from the provider, the tokens are gone, and a revisit asks to sign in', async ({ page }) => {
  await signIn(page)
  const pagesShown: string[] = []
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) pagesShown.push(new URL(frame.url()).pathname)
  })
  await page.getByTestId('logout-button').click()
  // The provider ends its session at once and returns to the app, which, signed out, sends the visitor to sign in.
  await expect(page).toHaveURL(/\/oidc\/interaction\//)
  await expect(page.getByLabel('Password')).toBeVisible()
  expect(pagesShown.filter((path) => path.startsWith('/oidc/session/end'))).toEqual([])
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('oidc.user:')))).toEqual([])

  await page.goto('/transactions')
  await expect(page).toHaveURL(/\/oidc\/interaction\//)
  await expect(page.getByLabel('Password')).toBeVisible()
  await expectNoAxeViolations(page, 'the sign-in page')
})

test('the sign-in and registration pages are accessible and translated', async ({ page }) => {
  await page.goto('/login')
  await expect(page).toHaveURL(/\/oidc\//)
  await expect(page.getByLabel('E-mail')).toBeVisible()
  await keepScreenshot(page, 'sign-in')
  await expectNoAxeViolations(page, 'the sign-in page')

  await page.goto('/register')
  await expect(page.getByLabel('First name')).toBeVisible()
  await keepScreenshot(page, 'registration')
  await expectNoAxeViolations(page, 'the registration page')

  await page.context().addCookies([{ name: 'locale', value: 'pl_pl', url: page.url() }])
  await page.goto('/login')
  await expect(page.locator('html')).toHaveAttribute('lang', /^pl/)
  await expect(page.getByLabel('Hasło')).toBeVisible()
  await expectNoAxeViolations(page, 'the Polish sign-in page')
})

test('a wrong password gets a clear message', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByLabel('Password').fill('wrong password 1')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByText('The e-mail or password is incorrect.')).toBeVisible()
})

async function signIn(page: Page) {
  await page.goto('/transactions')
  await expect(page).toHaveURL(/\/oidc\//)
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByLabel('Password').fill(person.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(/\/transactions$/)
  await expect(page.getByTestId('welcome-line').or(page.getByTestId('open-menu-button'))).toBeVisible()
}

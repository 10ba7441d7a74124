import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { nthMailTo } from '../support/mailbox.ts'
import { finishRegistrationFromMail, newPerson, type Person, registeredPerson, submitRegistration } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { test } from '../support/test.ts'

/**
 * Registration tells no one who has an account (issue 30): a taken address
 * and a free one get the same page, and the owner of a taken one is e-mailed
 * instead. The account itself is made by the e-mailed link.
 */

/** Sends the registration form in a fresh browser; returns the page and the form post's status. */
async function registerIn(page: Page, person: Person): Promise<number> {
  await page.goto('/register')
  const posted = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/register'))
  await submitRegistration(page, person)
  return (await posted).status()
}

const masked = async (page: Page, address: string) => (await page.locator('main').innerText()).replaceAll(address.toLowerCase(), 'ADDRESS')

test('a taken address gets the same page as a free one, and its owner gets the e-mail', async ({ browser }) => {
  const owner = newPerson('Olga')
  const ownersPage = await registeredPerson(browser, owner)
  await ownersPage.context().close()

  const intruder = await (await browser.newContext()).newPage()
  const takenStatus = await registerIn(intruder, { ...newPerson('Ivo'), email: owner.email, password: 'not olgas 1234' })
  const newcomer = await (await browser.newContext()).newPage()
  const fresh = newPerson('Fern')
  const freeStatus = await registerIn(newcomer, fresh)

  expect(takenStatus).toBe(200)
  expect(freeStatus).toBe(200)
  expect(await masked(intruder, owner.email)).toBe(await masked(newcomer, fresh.email))
  await expect(intruder.getByText(`We sent a message to ${owner.email.toLowerCase()}.`)).toBeVisible()
  await expectNoAxeViolations(newcomer, 'the check-your-inbox page')
  await keepScreenshot(newcomer, 'registration-check-inbox')

  // The owner is told, with the ways back in; their first e-mail was their own registration link.
  const notice = await nthMailTo(owner.email, 2)
  expect(notice.subject).toBe('Someone tried to create a Pactum account with your address')
  expect(notice.text).toContain('Someone — perhaps you — tried to create a Pactum account with this address.')
  expect(notice.text).toMatch(/\/oidc\/forgot-password\?lang=en_gb/)
  expect(notice.text).not.toMatch(/complete-registration/)

  // This server writes its e-mail to files: on this machine, the page opens the message it just wrote.
  await expect(intruder.getByText('This Pactum server writes its e-mails to files instead of sending them')).toBeVisible()
  await intruder.getByRole('link', { name: 'Open the message' }).click()
  await expect(
    intruder.getByRole('heading', { level: 1, name: 'Someone tried to create a Pactum account with your address' }),
  ).toBeVisible()
  await expectNoAxeViolations(intruder, 'a message the file mailer wrote')
  await keepScreenshot(intruder, 'registration-sent-mail')
  await intruder.context().close()

  // The newcomer's link makes the account and signs them in; the owner's password still works.
  await newcomer.goto((await nthMailTo(fresh.email, 1)).text.match(/https?:\/\/\S+/)![0])
  await expect(newcomer.getByRole('heading', { level: 1, name: 'Finish creating your account' })).toBeVisible()
  await expectNoAxeViolations(newcomer, 'the page of the registration link')
  await keepScreenshot(newcomer, 'registration-complete')
  await newcomer.getByRole('button', { name: 'Create my account' }).click()
  await expect(newcomer).toHaveURL(/\/transactions$/)
  await newcomer.context().close()

  const again = await (await browser.newContext()).newPage()
  await again.goto('/login')
  await again.getByLabel('E-mail').fill(owner.email)
  await again.getByLabel('Password').fill(owner.password)
  await again.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(again).toHaveURL(/\/transactions$/)
  await again.context().close()
})

test('a link opened in another browser says the account is ready', async ({ browser }) => {
  const person = newPerson('Rhea')
  const laptop = await (await browser.newContext()).newPage()
  await registerIn(laptop, person)
  const phone = await (await browser.newContext()).newPage()
  await finishRegistrationFromMail(phone, person)
  await expect(phone.getByRole('heading', { level: 1, name: 'Your account is ready' })).toBeVisible()
  await keepScreenshot(phone, 'registration-ready')
  await phone.getByRole('link', { name: 'Sign in to Pactum' }).click()
  await phone.getByLabel('E-mail').fill(person.email)
  await phone.getByLabel('Password').fill(person.password)
  await phone.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(phone).toHaveURL(/\/transactions$/)
  await laptop.context().close()
  await phone.context().close()
})

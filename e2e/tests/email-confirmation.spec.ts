import { expect, test } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { nthMailTo } from '../support/mailbox.ts'
import { newPerson, registeredPerson, signOutAndIn } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'

/**
 * The embedded sign-in confirms e-mail addresses as a real issuer does, so
 * that company and partner privileges can work on the embedded defaults.
 */
test('a new person confirms their e-mail address from the link, and the account page says so', async ({ browser }) => {
  const person = newPerson('Celina')
  const page = await registeredPerson(browser, person)
  expect((await nthMailTo(person.email, 1)).subject).toBe('Confirm your e-mail address for Pactum')

  await page.goto('/profile/help/account')
  await expect(page.getByTestId('email-not-confirmed')).toContainText('Not confirmed yet')
  await page.getByRole('button', { name: 'Send the link again' }).click()
  await expect(page.getByTestId('email-confirmation-sent')).toContainText(person.email)
  await expectNoAxeViolations(page, 'the account page with an address to confirm')

  const link = (await nthMailTo(person.email, 2)).text.match(/https?:\/\/\S+/)?.[0]
  expect(link).toBeTruthy()
  await page.goto(link!)
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your e-mail address' })).toBeVisible()
  await expectNoAxeViolations(page, 'the e-mail confirmation page')
  await page.getByRole('button', { name: 'Confirm e-mail address' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'E-mail address confirmed' })).toBeVisible()
  await keepScreenshot(page, 'email-confirmed')

  // New tokens carry the confirmation.
  await page.goto('/profile/help/account')
  await signOutAndIn(page, person)
  await page.goto('/profile/help/account')
  await expect(page.getByTestId('email-confirmed')).toHaveText('Confirmed')
  await keepScreenshot(page, 'account-email-confirmed')
  await page.context().close()
})

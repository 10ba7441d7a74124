import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { nthMailTo } from '../support/mailbox.ts'
import { newPerson, registeredPerson } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { test } from '../support/test.ts'

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/**
 * A person who forgot their password gets back in by the e-mailed link, and
 * the old password no longer opens the account (issue 30).
 */
test('forgot password: the link in the mail sets a new password, the old one is refused, the new one signs in', async ({ browser }) => {
  const person = newPerson('Ruth')
  const registered = await registeredPerson(browser, person)
  await registered.context().close()

  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto('/transactions')
  await page.waitForURL(/\/oidc\/interaction\//)
  await keepScreenshot(page, 'sign-in-with-forgot-link')
  await page.getByRole('link', { name: 'Forgot your password?' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible()
  await expect(page.getByLabel('E-mail')).toBeFocused()
  await expectNoAxeViolations(page, 'the forgot password page')
  await keepScreenshot(page, 'forgot-password')

  await page.getByLabel('E-mail').fill(person.email)
  await page.getByRole('button', { name: 'Send the link' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Check your e-mail' })).toBeVisible()
  await expect(page.getByText(`If there is a Pactum account with the address ${person.email}`)).toBeVisible()
  await keepScreenshot(page, 'forgot-password-sent')

  // The first mail is the address confirmation sent at registration.
  const mail = await nthMailTo(person.email, 2)
  expect(mail.subject).toBe('Reset your Pactum password')
  const link = mail.text.match(/https?:\/\/\S+\/reset-password\/\S+/)?.[0]
  expect(link).toBeTruthy()
  await page.goto(link!)
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible()
  await expectNoAxeViolations(page, 'the new password page')
  await keepScreenshot(page, 'reset-password')

  await page.getByLabel('New password').fill('short')
  await page.getByRole('button', { name: 'Save the new password' }).click()
  await expect(page.getByLabel('New password')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('Use at least 10 characters.')).toBeVisible()
  await expectNoAxeViolations(page, 'the new password page with errors')
  await keepScreenshot(page, 'reset-password-errors')

  const newPassword = 'battery staple 77'
  await page.getByLabel('New password').fill(newPassword)
  await page.getByRole('button', { name: 'Save the new password' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Password changed' })).toBeVisible()
  await keepScreenshot(page, 'reset-password-done')

  await page.getByRole('link', { name: 'Sign in' }).click()
  await page.waitForURL(/\/oidc\/interaction\//)
  await signIn(page, person.email, person.password)
  await expect(page.getByRole('alert')).toHaveText('The e-mail or password is incorrect.')
  await signIn(page, person.email, newPassword)
  await expect(page).toHaveURL(/\/transactions$/)

  // The link worked once.
  await page.goto(link!)
  await expect(page.getByRole('heading', { level: 1, name: 'This link is not valid' })).toBeVisible()

  // And from the account page, the password changes again without leaving this browser.
  await page.goto('/profile/help/account')
  // The password form's own fields: the address and passkey forms ask for the current password too.
  const passwordForm = page.getByTestId('change-password')
  await passwordForm.getByLabel('Current password').fill(newPassword)
  await passwordForm.getByLabel('New password').fill('another staple 88')
  await passwordForm.getByRole('button', { name: 'Change password' }).click()
  await expect(passwordForm.getByRole('status')).toHaveText('Your password is changed. Every other device has been signed out.')
  // Where this person is signed in: only here now.
  await expect(page.getByTestId('signed-in-session')).toHaveCount(1)
  await expect(page.getByTestId('signed-in-session')).toContainText('This browser')
  await expectNoAxeViolations(page, 'the account page after a password change')
  await keepScreenshot(page, 'account-password-changed')
  await context.close()
})

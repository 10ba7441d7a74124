import { expect } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { newPerson, registeredPerson, signOutAndGivePassword } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { nextCode, setUpAuthenticatorApp } from '../support/second-factor.ts'
import { test } from '../support/test.ts'

/**
 * Issue 30: an authenticator app as the second factor. Set up on the Account
 * page (the password, the key as a QR code and as text, a code from the
 * app), it is asked for after the password at every sign-in; a wrong code is
 * refused at its field; removed with the password, the password alone signs
 * in again.
 */
test('a person turns on an authenticator app, signs in with a code after the password, and turns it off', async ({ browser }) => {
  const person = newPerson('Tove')
  const page = await registeredPerson(browser, person)

  await page.goto('/profile/help/account')
  await page.getByTestId('totp-setup').getByTestId('totp-setup-password').fill(person.password)
  await page.getByTestId('totp-setup-submit').click()
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  await expectNoAxeViolations(page, 'the authenticator app set-up')
  await keepScreenshot(page, 'account-totp-setup')
  await page.getByRole('button', { name: 'Cancel' }).click()
  const secret = await setUpAuthenticatorApp(page, person)
  await keepScreenshot(page, 'account-totp-enabled')

  await signOutAndGivePassword(page, person)
  await expect(page.getByRole('heading', { level: 1, name: 'One more step' })).toBeVisible()
  await page.getByLabel('Sign-in code').fill('000000')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByLabel('Sign-in code')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('That code is not right, or it was used already.')).toBeVisible()
  await expectNoAxeViolations(page, 'the second step of the sign-in with a wrong code')
  await keepScreenshot(page, 'sign-in-second-factor')
  await page.getByLabel('Sign-in code').fill(nextCode(secret))
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(/\/transactions$/)
  await expect(page.getByText(`Welcome, ${person.firstName}!`)).toBeVisible()

  await page.goto('/profile/help/account')
  const remove = page.getByTestId('totp-remove')
  await remove.getByTestId('totp-remove-password').fill(person.password)
  await remove.getByTestId('totp-remove-submit').click()
  await expect(page.getByTestId('totp-setup')).toBeVisible()
  await signOutAndGivePassword(page, person)
  await expect(page).toHaveURL(/\/transactions$/)
  await page.context().close()
})

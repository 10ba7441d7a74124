import { expect } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { newPerson, registeredPerson } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { test } from '../support/test.ts'

/**
 * Issue 30: a passkey added on the Account page signs the person in
 * without the password. Chromium's virtual authenticator stands in for the
 * device's (a platform authenticator with user verification, as a phone's
 * or a laptop's).
 */
test('a person adds a passkey on the Account page and signs in with it instead of the password', async ({ browser }) => {
  const person = newPerson('Paula')
  const page = await registeredPerson(browser, person)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })

  await page.goto('/profile/help/account')
  await expect(page.getByTestId('passkeys-empty')).toBeVisible()
  const form = page.getByTestId('add-passkey')
  await form.getByTestId('passkey-name').fill('Work laptop')
  await form.getByTestId('passkey-password').fill(person.password)
  await form.getByTestId('add-passkey-submit').click()
  await expect(page.getByTestId('passkey-added')).toContainText('"Work laptop" was added')
  await expect(page.getByTestId('passkeys-list')).toContainText('Work laptop')
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
  expect(credentials).toHaveLength(1)
  expect(credentials[0]?.isResidentCredential).toBe(true)
  await expectNoAxeViolations(page, 'the account page with a passkey')
  await keepScreenshot(page, 'account-passkeys')

  // Signed out, the sign-in page offers the passkey; no e-mail or password is typed.
  await page.getByTestId('logout-button').click()
  await page.waitForURL(/\/oidc\/interaction\//)
  const button = page.getByRole('button', { name: 'Sign in with a passkey' })
  await expect(button).toBeVisible()
  await expectNoAxeViolations(page, 'the sign-in page with the passkey button')
  await keepScreenshot(page, 'sign-in-with-passkey')
  await button.click()
  await expect(page).toHaveURL(/\/transactions$/)
  await expect(page.getByText(`Welcome, ${person.firstName}!`)).toBeVisible()
  const used = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
  expect(used.credentials[0]?.signCount).toBeGreaterThan(0)

  // Removing it: the next sign-in with it is refused, the password still works.
  await page.goto('/profile/help/account')
  await page.getByRole('button', { name: 'Remove Work laptop' }).click()
  await page.getByTestId('remove-passkey-dialog').getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByTestId('passkeys-empty')).toBeVisible()
  await page.getByTestId('logout-button').click()
  await page.waitForURL(/\/oidc\/interaction\//)
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page.getByRole('alert')).toContainText('That passkey could not sign you in')
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByLabel('Password').fill(person.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(/\/transactions$/)
  await page.context().close()
})

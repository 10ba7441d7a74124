import { expect, type Page } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import { type Person, signOutAndGivePassword } from './people.ts'

/**
 * An authenticator app for the browser tests: the same RFC 6238 codes a
 * phone's app makes from the key the Account page shows (otpauth, as the
 * server uses; the code's definition is the RFC's, not the server's).
 */
export function codeFor(secret: string, at: number = Date.now()): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at })
}

/**
 * A code for the next sign-in: the one of the next 30-second step, which the
 * server accepts (one step either side of now) and which no earlier step has
 * used up, such as the set-up's own code a moment ago.
 */
export function nextCode(secret: string): string {
  return codeFor(secret, Date.now() + 30_000)
}

/** Sets up an authenticator app on the Account page as a person would: the password, the key, a code. Returns the key. */
export async function setUpAuthenticatorApp(page: Page, person: Person): Promise<string> {
  await page.goto('/profile/help/account')
  const setup = page.getByTestId('totp-setup')
  await setup.getByTestId('totp-setup-password').fill(person.password)
  await setup.getByTestId('totp-setup-submit').click()
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '')
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  await page.getByTestId('totp-code').fill(codeFor(secret))
  await page.getByTestId('totp-confirm-submit').click()
  await expect(page.getByTestId('totp-enabled')).toBeVisible()
  return secret
}

/** Signs out from the menu and in again with the password and then a code from the app. */
export async function signOutAndInWithCode(page: Page, person: Person, secret: string): Promise<void> {
  await signOutAndGivePassword(page, person)
  await expect(page.getByRole('heading', { level: 1, name: 'One more step' })).toBeVisible()
  await page.getByLabel('Sign-in code').fill(nextCode(secret))
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(/\/transactions$/)
}

import { expect } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { nthMailTo } from '../support/mailbox.ts'
import { newPerson, registeredPerson } from '../support/people.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { test } from '../support/test.ts'

/**
 * The embedded sign-in confirms e-mail addresses as a real issuer does, so
 * that company and partner privileges can work on the embedded defaults.
 * Registration proves the address itself (the account is made only when the
 * e-mailed link is opened: registration.spec.ts), so a new person's address
 * is confirmed from the start; the account page's "send the link again" is
 * for accounts made before that.
 */
test('a new person is confirmed by the link that finished their registration, and the account page says so', async ({ browser }) => {
  const person = newPerson('Celina')
  const page = await registeredPerson(browser, person)
  expect((await nthMailTo(person.email, 1)).subject).toBe('Finish creating your Pactum account')

  await page.goto('/profile/help/account')
  await expect(page.getByTestId('email-confirmed')).toHaveText('Confirmed')
  await expect(page.getByRole('button', { name: 'Send the link again' })).toHaveCount(0)
  await expectNoAxeViolations(page, 'the account page with a confirmed address')
  await keepScreenshot(page, 'account-email-confirmed')
  await page.context().close()
})

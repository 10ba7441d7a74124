import { expect } from '@playwright/test'
import { newPerson, registeredPerson } from '../support/people.ts'
import { expectSavedInPlace } from '../support/result.ts'
import { test } from '../support/test.ts'

/**
 * Issue 14 #2 with no Plaid keys (the default): a US seller's "Link your
 * bank" opens the sandbox's stand-in for Plaid Link, the server says which
 * screen to open, and the linked account reaches the payout details. The
 * page's Content-Security-Policy stays closed to Plaid and Stripe.
 */
test('a US seller links their bank through the sandbox link screen', async ({ browser }) => {
  const seller = await registeredPerson(browser, newPerson('Grace'), 'United States')
  const page = await seller.request.get('/profile/payment/bank-details')
  const csp = page.headers()['content-security-policy'] ?? ''
  expect(csp).toContain("script-src 'self'")
  expect(csp).not.toMatch(/plaid|stripe/)

  await seller.goto('/profile/payment/bank-details')
  const linkToken = seller.waitForResponse((response) => response.url().endsWith('/me/plaid/link_token'))
  await seller.getByTestId('bank-link-start').click()
  expect(await (await linkToken).json()).toMatchObject({ provider: 'sandbox' })
  const dialog = seller.getByTestId('sandbox-link-dialog')
  await dialog.getByTestId('sandbox-link-success').click()
  await expectSavedInPlace(seller, 'Your bank account has been linked.')
  await expect(seller.getByTestId('bank-stored-number')).toContainText('6789', { timeout: 10_000 })
})

/** Issue 33 item 4: a refused link says so before the spec's support message and address. */
test('a US seller whose bank refuses the link reads why, with the support address', async ({ browser }) => {
  const seller = await registeredPerson(browser, newPerson('Hedy'), 'United States')
  await seller.goto('/profile/payment/bank-details')
  await seller.getByTestId('bank-link-start').click()
  await seller.getByTestId('sandbox-link-dialog').getByTestId('sandbox-link-failure').click()
  await expect(seller.getByRole('dialog', { name: 'Error!' })).toContainText(
    /Your bank refused the connection\. Something went wrong\. Please contact support at \S+@\S+\./,
  )
})

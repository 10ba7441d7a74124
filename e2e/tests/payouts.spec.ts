import { expect } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { newPerson, registeredPerson } from '../support/people.ts'
import { buyerJoins, completeSale, sellerCreates } from '../support/sale.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { expectSavedInPlace } from '../support/result.ts'
import { reloadUntil } from '../support/reload-until.ts'
import { test } from '../support/test.ts'

/** A real 1×1 PNG: the server checks the type by content. */
const passportPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

/**
 * Issue 4's end-to-end path: a seller completes personal details, bank details
 * and the identity document; the warning on My profile goes; after a released
 * sale the money shows in the balance and is paid out to the bank (the
 * sandbox's schedule is shortened to seconds in playwright.config.ts).
 */
test('a seller completes every payout requirement, and a released sale is paid out to the bank', async ({ browser }) => {
  // Two people, a whole sale and the sandbox's payout schedule: about a minute of waiting on timers.
  test.setTimeout(360_000)
  const seller = await registeredPerson(browser, newPerson('Olga'))
  await expect(seller.getByTestId('profile-warning')).toBeVisible()

  await seller.goto('/profile/details')
  await seller.getByTestId('personal-dob-day').selectOption('3')
  await seller.getByTestId('personal-dob-month').selectOption('9')
  await seller.getByTestId('personal-dob-year').selectOption('1985')
  await seller.getByTestId('personal-phone').fill('851234567')
  await seller.getByTestId('personal-address-line1').fill('5 Harbour Road')
  await seller.getByTestId('personal-address-city').fill('Cork')
  await seller.getByTestId('personal-address-postal-code').fill('T12 X70A')
  await seller.getByTestId('personal-details-save').click()
  await expectSavedInPlace(seller, 'Your personal details have been saved.')

  await seller.goto('/profile/payment/bank-details')
  await seller.getByTestId('bank-iban').fill('IE29 AIBK 9311 5212 3456 78')
  await seller.getByTestId('bank-save').click()
  await expect(seller.getByTestId('bank-stored-number')).toContainText('5678', { timeout: 10_000 })

  // The old identity-document path lands on the section.
  await seller.goto('/profile/id-document')
  await expect(seller).toHaveURL(/\/profile\/details#identity-document$/)
  const front = seller.getByTestId('identity-slot-identity_document-front')
  await expect(front).toBeVisible()
  await expect(seller.getByTestId('payout-requirement-identity_document')).toBeVisible()
  await expectNoAxeViolations(seller, 'the identity document section')

  // A text file named like an image is refused by the server's content check.
  await seller.getByTestId('identity-slot-identity_document-front-input').setInputFiles({
    name: 'passport.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<html>not an image</html>'),
  })
  await expect(seller.getByTestId('identity-slot-identity_document-front-error')).toBeVisible()

  await seller
    .getByTestId('identity-slot-identity_document-front-input')
    .setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: passportPng })
  await expect(seller.getByTestId('identity-slot-identity_document-front-status')).toHaveText(/Being checked|Verified/)
  // The sandbox's check takes 2 s here; the section polls until it is done.
  await expect(seller.getByTestId('identity-slot-identity_document-front-status')).toHaveText('Verified', { timeout: 20_000 })
  await expect(seller.getByTestId('payout-requirements-none')).toBeVisible({ timeout: 10_000 })
  await expect(seller.getByTestId('profile-warning')).toBeHidden()
  await keepScreenshot(seller, 'identity-verified')

  await seller.goto('/profile/balance')
  await expect(seller.getByTestId('balance-empty')).toBeVisible()
  await expect(seller.getByTestId('payouts-empty')).toBeVisible()
  await expectNoAxeViolations(seller, 'the empty balance page')

  const buyer = await registeredPerson(browser, newPerson('Bruno'))
  const code = await sellerCreates(seller, 'Kayak paddle', '90.00')
  await buyerJoins(buyer, code)
  await completeSale(seller, buyer)

  await seller.goto('/profile/balance')
  await reloadUntil(seller, (lookMs) => expect(seller.getByTestId('payout-row')).toHaveCount(1, { timeout: lookMs }))
  await expect(seller.getByTestId('payout-bank')).toContainText('5678')
  // In transit for a few seconds, then paid; the page polls meanwhile.
  await expect(seller.getByTestId('payout-status')).toHaveText('Paid', { timeout: 30_000 })
  await expect(seller.getByTestId('balance-empty')).toBeVisible({ timeout: 15_000 })
  await expectNoAxeViolations(seller, 'the balance page with a payout')
  await keepScreenshot(seller, 'balance-paid-out')
})

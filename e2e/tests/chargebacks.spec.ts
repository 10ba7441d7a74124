import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { adminPerson, newPerson, registeredPerson } from '../support/people.ts'
import { reloadUntil } from '../support/reload-until.ts'
import { closeSuccess } from '../support/result.ts'
import { buyerJoins, buyerPays, sellerCreates } from '../support/sale.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { setUpAuthenticatorApp, signOutAndInWithCode } from '../support/second-factor.ts'
import { test } from '../support/test.ts'

/**
 * A card dispute (issue 34, decision 109): the buyer pays with the sandbox's
 * dispute card, and SANDBOX_DISPUTE_DELAY_SECONDS later (2 s here,
 * server-env.ts) the buyer's bank disputes the payment while Pactum holds the
 * money. Both parties see the sale paused; an admin answers the bank from the
 * Chargebacks tab, the sandbox's card network decides for the sale, and the
 * sale goes on. Then a payment with the early-fraud-warning card: only the
 * admin sees the warning, and clears it.
 */
test('a card dispute on held money pauses the sale until the bank decides it for the sale', async ({ browser }, testInfo) => {
  test.setTimeout(360_000)
  const seller = await registeredPerson(browser, newPerson('Sol'))
  const buyer = await registeredPerson(browser, newPerson('Bree'))
  const code = await sellerCreates(seller, 'Oak writing desk', '120.00')
  await buyerJoins(buyer, code)
  await buyerPays(buyer, '4000 0000 0000 0259')
  await closeSuccess(buyer)
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid')
  const saleUrl = buyer.url()

  // The bank's dispute reaches the sale as the provider's news: the buyer's page says the sale is paused, and why.
  const buyerNotice = buyer.getByTestId('chargeback-notice')
  await reloadUntil(buyer, (lookMs) => expect(buyerNotice).toBeVisible({ timeout: lookMs }))
  await expect(buyerNotice).toContainText('Card dispute: €')
  await expect(buyerNotice).toContainText('the sale is paused')
  await expect(buyerNotice).toContainText('nothing is released and no deadline runs')
  await expect(buyerNotice.getByTestId('chargeback-due')).toHaveCount(0)
  await expectNoAxeViolations(buyer, 'the status page with a card dispute, buyer')
  await keepScreenshot(buyer, 'chargebacks-paused-buyer')
  await keepPhoneScreenshot(buyer, 'chargebacks-paused-buyer-phone')

  // The seller is told the same, with the date Pactum answers the bank by.
  await seller.goto(saleUrl)
  const sellerNotice = seller.getByTestId('chargeback-notice')
  await expect(sellerNotice).toContainText('the sale is paused')
  await expect(sellerNotice.getByTestId('chargeback-due')).toContainText('Pactum answers the bank by')
  await expectNoAxeViolations(seller, 'the status page with a card dispute, seller')
  await keepScreenshot(seller, 'chargebacks-paused-seller')

  // An admin finds it in the Chargebacks tab, frozen and due in 21 days.
  const ada = adminPerson(testInfo.retry, 'chargebacks')
  const admin = await registeredPerson(browser, ada)
  await signOutAndInWithCode(admin, ada, await setUpAuthenticatorApp(admin, ada))
  await admin.goto('/admin')
  await admin.getByRole('link', { name: 'Chargebacks' }).click()
  await expect(admin).toHaveURL(/\/admin\/chargebacks$/)
  const row = admin.getByTestId('chargeback-row').filter({ hasText: 'Oak writing desk' })
  await expect(row).toContainText('Needs a response')
  await expect(row).toContainText('Money frozen')
  await expect(row).toContainText('fraudulent')
  await expect(row.getByTestId('chargeback-due-soon')).toHaveCount(0)
  await expectNoAxeViolations(admin, 'admin chargebacks')
  await keepScreenshot(admin, 'chargebacks-admin-list')

  // The sale's own page in the console shows the dispute too.
  await row.getByRole('link', { name: 'Oak writing desk' }).click()
  await expect(admin.getByTestId('admin-chargeback')).toContainText('Needs a response')
  await expect(admin.getByTestId('admin-sandbox-dispute')).toHaveCount(0)
  await expect(admin.getByTestId('admin-actions')).toHaveCount(0)
  await expectNoAxeViolations(admin, 'admin transaction with a card dispute')
  await keepScreenshot(admin, 'chargebacks-admin-transaction-chargeback')
  await admin.goBack()

  // Evidence goes to the bank with a reason; the dispute is then under review.
  await row.getByRole('button', { name: 'Send evidence' }).click()
  const evidence = admin.getByTestId('chargeback-evidence-dialog')
  await evidence.getByTestId('chargeback-evidence-dialog-confirm').click()
  await expect(evidence.getByText('Give the reason.')).toBeVisible()
  await evidence.getByTestId('chargeback-reason').fill('Tracked parcel signed for at the buyer’s address.')
  await expectNoAxeViolations(admin, 'admin chargeback evidence dialog')
  await keepScreenshot(admin, 'chargebacks-admin-evidence')
  await evidence.getByTestId('chargeback-evidence-dialog-confirm').click()
  await expect(evidence).toBeHidden()
  await expect(row).toContainText('Under review')
  await expect(row.getByRole('button', { name: 'Send evidence' })).toHaveCount(0)

  // The sandbox's card network decides for the sale: the dispute closes and leaves the open list.
  await row.getByRole('button', { name: 'Decide (sandbox)' }).click()
  const decide = admin.getByTestId('chargeback-decide-dialog')
  await decide.getByLabel('Won by Pactum').check()
  await expectNoAxeViolations(admin, 'admin chargeback decide dialog')
  await keepScreenshot(admin, 'chargebacks-admin-decide')
  await decide.getByTestId('chargeback-decide-dialog-confirm').click()
  await expect(decide).toBeHidden()
  await reloadUntil(admin, (lookMs) => expect(row).toHaveCount(0, { timeout: lookMs }))
  await admin.getByRole('combobox', { name: 'Show' }).click()
  await admin.getByRole('option', { name: 'All' }).click()
  await expect(admin.getByRole('listbox')).toBeHidden()
  await expect(row).toContainText('Won')
  await expect(row).not.toContainText('Money frozen')
  await keepScreenshot(admin, 'chargebacks-admin-won')

  // The parties see the decision, and the sale goes on: the seller can ship.
  await buyer.goto(saleUrl)
  await expect(buyerNotice).toContainText('The card dispute was decided for the sale')
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid')
  await expectNoAxeViolations(buyer, 'the status page after a card dispute won')
  await keepScreenshot(buyer, 'chargebacks-won-buyer')
  await keepPhoneScreenshot(buyer, 'chargebacks-won-buyer-phone')
  await seller.reload()
  await expect(sellerNotice).toContainText('The card dispute was decided for the sale')
  await expect(seller.getByTestId('action-track')).toBeVisible()

  // A second sale, paid with the early-fraud-warning card: the parties see nothing of it; the admin sees the
  // warning, and the sandbox's panel that would open a dispute on the payment, and clears the warning with a reason.
  const lampCode = await sellerCreates(seller, 'Brass desk lamp', '40.00')
  await buyerJoins(buyer, lampCode)
  await buyerPays(buyer, '4000 0000 0000 5423')
  await closeSuccess(buyer)
  const lampId = buyer.url().split('/').at(-1) ?? ''
  await admin.goto(`/admin/transactions/${lampId}`)
  const warning = admin.getByTestId('admin-fraud-warning')
  await reloadUntil(admin, (lookMs) => expect(warning).toBeVisible({ timeout: lookMs }))
  await expect(warning).toContainText('made_with_stolen_card')
  await expect(warning).toContainText('Nothing is released until an admin clears it.')
  await expect(admin.getByTestId('admin-sandbox-dispute')).toBeVisible()
  await expectNoAxeViolations(admin, 'admin transaction with a fraud warning')
  await keepScreenshot(admin, 'chargebacks-admin-transaction-fraud-warning')
  await admin.getByTestId('admin-sandbox-dispute-open').click()
  const opening = admin.getByTestId('admin-sandbox-dispute-dialog')
  await opening.getByTestId('admin-sandbox-dispute-amount').fill('500')
  await opening.getByTestId('admin-sandbox-dispute-dialog-confirm').click()
  await expect(opening.getByText(/^At most the whole payment, €\d+\.\d{2}\.$/)).toBeVisible()
  await expectNoAxeViolations(admin, 'admin sandbox dispute dialog')
  await keepScreenshot(admin, 'chargebacks-admin-sandbox-dispute')
  await opening.getByRole('button', { name: 'Back' }).click()
  await expect(opening).toBeHidden()
  await admin.getByTestId('admin-clear-fraud-warning').click()
  const clearing = admin.getByTestId('admin-action-dialog')
  await expect(clearing).toContainText('The parties are not told')
  await clearing.getByTestId('admin-action-reason').fill('The buyer confirmed the payment from their bank app.')
  await keepScreenshot(admin, 'chargebacks-admin-clear-fraud-warning')
  await clearing.getByTestId('admin-action-dialog-confirm').click()
  await expect(clearing).toBeHidden()
  await expect(warning).toContainText('cleared')
  await expect(admin.getByTestId('admin-clear-fraud-warning')).toHaveCount(0)
  await expect(admin.getByTestId('admin-history')).toContainText('The buyer confirmed the payment from their bank app.')
  await expect(buyer.getByTestId('chargeback-notice')).toHaveCount(0)
})

/** The same page at a phone's width, then back. */
async function keepPhoneScreenshot(page: Page, name: string): Promise<void> {
  const desktop = page.viewportSize()
  await page.setViewportSize({ width: 390, height: 844 })
  await keepScreenshot(page, name)
  if (desktop) await page.setViewportSize(desktop)
}

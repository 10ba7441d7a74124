import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { adminPerson, newPerson, registeredPerson } from '../support/people.ts'
import { closeSuccess } from '../support/result.ts'
import { complainedSale } from '../support/sale.ts'
import { setUpAuthenticatorApp, signOutAndInWithCode } from '../support/second-factor.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { test } from '../support/test.ts'

/**
 * A complaint opens a case (issue 32): the parties settle it on a split
 * themselves, or one of them takes it to Pactum and an admin decides a split.
 * Two browser contexts for the parties, a third for the admin.
 */

/** A photo of the damage: a real 16×16 PNG, which the server decodes and encodes anew. */
const damagePhoto = path.join(import.meta.dirname, '..', 'fixtures', 'damaged-leg.png')

/** Proposes a split from the case card: `refund` back to the buyer, typed as a person would. */
async function propose(page: Page, refund: string, note: string) {
  await page.getByTestId('action-propose-settlement').click()
  const dialog = page.getByTestId('dialog-propose-settlement')
  await dialog.getByTestId('offer-refund').fill(refund)
  await dialog.getByTestId('offer-note').fill(note)
  await dialog.getByTestId('dialog-propose-settlement-confirm').click()
  await closeSuccess(page)
}

test('a damaged-item complaint settles on a counter-offer at 30/70, without an admin', async ({ browser }) => {
  test.setTimeout(360_000)
  const seller = await registeredPerson(browser, newPerson('Sol'))
  const buyer = await registeredPerson(browser, newPerson('Bianca'))
  await complainedSale(seller, buyer, { description: 'Road bike frame', price: '100.00', complaint: 'The frame arrived cracked.' })
  await closeSuccess(buyer)

  // The buyer asks for everything back.
  const card = buyer.getByTestId('case-card')
  await expect(card).toContainText('Reason: Damaged')
  await expect(card.getByTestId('case-no-offers')).toBeVisible()
  await expectNoAxeViolations(buyer, 'the case card, no offers yet')
  await propose(buyer, '100.00', 'A cracked frame cannot be ridden.')
  await expect(card.getByTestId('case-offer-open')).toContainText('You: €100.00 back to the buyer, €0.00 to the seller')

  // The seller counters with 30 % back.
  await seller.reload()
  const sellerCard = seller.getByTestId('case-card')
  await expect(sellerCard.getByTestId('case-offer-open')).toContainText('The buyer: €100.00 back')
  await keepScreenshot(seller, 'case-offer-to-answer')
  await seller.getByTestId('action-propose-settlement').click()
  const dialog = seller.getByTestId('dialog-propose-settlement')
  await dialog.getByTestId('offer-refund').fill('30.00')
  await expect(dialog.getByTestId('offer-release')).toHaveText('To the seller: €70.00')
  await expectNoAxeViolations(seller, 'the settlement offer dialog')
  await keepScreenshot(seller, 'case-counter-offer')
  await dialog.getByTestId('dialog-propose-settlement-confirm').click()
  await closeSuccess(seller)

  // The buyer accepts the counter-offer: the money moves at once.
  await buyer.reload()
  await expect(card.getByTestId('case-offer-open')).toContainText('The seller: €30.00 back to the buyer, €70.00 to the seller')
  await expect(card.getByTestId('case-offer-replaced')).toBeVisible()
  await card.getByTestId('action-accept-settlement').click()
  await buyer.getByTestId('dialog-accept-case-confirm').click()
  await closeSuccess(buyer)
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'funds_released')
  // 30.00 back with 30 % of the 3.40 fee; 70.00 to the seller.
  await expect(card.getByTestId('case-outcome')).toHaveText('Outcome: €31.02 back to the buyer, €70.00 to the seller')
  await expectNoAxeViolations(buyer, 'the case card, settled')
  await keepScreenshot(buyer, 'case-settled')
  await seller.reload()
  await expect(seller.getByTestId('transaction-status')).toHaveAttribute('data-status', 'funds_released')
})

test('a case the buyer takes to Pactum is decided by an admin with a split, and the books balance', async ({ browser }, testInfo) => {
  test.setTimeout(360_000)
  const seller = await registeredPerson(browser, newPerson('Sven'))
  const buyer = await registeredPerson(browser, newPerson('Britt'))
  await complainedSale(seller, buyer, { description: 'Teak side table', price: '80.00', complaint: 'One leg is shorter than the others.' })
  await closeSuccess(buyer)
  // The seller leaves the sale's page, whose conversation would read (and mark read) the buyer's message as it polls.
  await seller.goto('/transactions')

  // The complaint comes with a photo: a message with an attachment in the conversation.
  const conversation = buyer.getByTestId('conversation-card')
  await conversation.getByLabel('Your message').fill('The short leg, next to the others.')
  await conversation.getByTestId('message-file-input').setInputFiles(damagePhoto)
  await expect(conversation.getByTestId('message-file-chosen')).toContainText('damaged-leg.png')
  await conversation.getByTestId('message-send').click()
  const photoMessage = conversation.getByTestId('message').filter({ hasText: 'The short leg, next to the others.' })
  await expect(photoMessage.getByRole('button', { name: 'Download damaged-leg.png' })).toBeVisible()
  await expect(photoMessage.getByTestId('attachment-facts')).toContainText('PNG')
  await expect(conversation.getByLabel('Your message')).toHaveValue('')
  await expectNoAxeViolations(buyer, 'the conversation with an attachment')
  await keepScreenshot(buyer, 'conversation')
  const desktop = buyer.viewportSize()
  await buyer.setViewportSize({ width: 390, height: 844 })
  await keepScreenshot(buyer, 'conversation-phone')
  if (desktop) await buyer.setViewportSize(desktop)

  // The seller sees it unread in My transactions, then reads it.
  await seller.goto('/transactions')
  const sellerRow = seller.getByTestId('transaction-row').filter({ hasText: 'Teak side table' })
  await expect(sellerRow.getByTestId('transaction-row-unread')).toHaveText('1 unread message')
  await keepScreenshot(seller, 'transactions-unread')
  await sellerRow.click()
  await expect(seller.getByTestId('conversation-card').getByTestId('message')).toContainText('The short leg, next to the others.')
  await seller.goto('/transactions')
  await expect(sellerRow).toBeVisible()
  await expect(sellerRow.getByTestId('transaction-row-unread')).toBeHidden()

  await buyer.getByTestId('action-escalate-case').click()
  await buyer.getByTestId('dialog-escalate-case-confirm').click()
  await closeSuccess(buyer)
  await expect(buyer.getByTestId('case-card')).toContainText('With Pactum')
  await keepScreenshot(buyer, 'case-with-pactum')

  const ada = adminPerson(testInfo.retry, 'cases')
  const admin = await registeredPerson(browser, ada)
  await signOutAndInWithCode(admin, ada, await setUpAuthenticatorApp(admin, ada))
  await admin.goto('/admin/cases')
  const row = admin.getByTestId('admin-case-row').filter({ hasText: 'One leg is shorter than the others.' })
  await expect(row).toBeVisible()
  await expectNoAxeViolations(admin, 'the admins’ case queue')
  await keepScreenshot(admin, 'admin-cases')
  await row.getByRole('link').click()
  await expect(admin.getByTestId('admin-case')).toBeVisible()
  // The evidence before deciding: the photo with its full SHA-256, the one the history recorded.
  const evidence = admin.getByTestId('admin-conversation').getByTestId('message-attachment')
  await expect(evidence.getByRole('button', { name: 'Download damaged-leg.png' })).toBeVisible()
  const sha256 = evidence.getByTestId('attachment-sha256-value')
  await expect(sha256).toHaveText(/^[0-9a-f]{64}$/)
  await expect(admin.getByTestId('admin-history')).toContainText(`sha256:${await sha256.textContent()}`)
  await expectNoAxeViolations(admin, 'the admin’s transaction page with the conversation')
  await keepScreenshot(admin, 'admin-conversation')
  await admin.getByTestId('admin-decide').click()
  const decide = admin.getByTestId('admin-decide-dialog')
  await decide.getByTestId('admin-decide-refund').fill('40.00')
  await expect(decide.getByTestId('admin-decide-release')).toHaveText('To the seller: €40.00')
  await decide.getByTestId('admin-decide-reason').fill('The photos show the leg; the table is usable once shimmed.')
  await expectNoAxeViolations(admin, 'the admin’s decision dialog')
  await keepScreenshot(admin, 'admin-decide')
  await decide.getByTestId('admin-decide-dialog-confirm').click()
  await expect(decide).toBeHidden()
  await expect(admin.getByTestId('admin-history')).toContainText('The photos show the leg')

  await buyer.reload()
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'funds_released')
  await expect(buyer.getByTestId('case-outcome')).toContainText('€40.00 to the seller')
  await admin.getByRole('link', { name: 'Ledger health' }).click()
  await expect(admin.getByTestId('ledger-ok')).toContainText('All checks passed')

  // The case file (issue 32 item 4): one PDF from the case section, saved as a download.
  await admin.goBack()
  const download = admin.waitForEvent('download')
  await admin.getByTestId('admin-case').getByTestId('case-file-download').click()
  const pdf = await download
  expect(pdf.suggestedFilename()).toMatch(/^pactum-case-[0-9a-f]{12}\.pdf$/)
  expect((await readFile(await pdf.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-')
})

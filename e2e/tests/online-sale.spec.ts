import { expect } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { newPerson, registeredPerson } from '../support/people.ts'
import { buyerJoins, buyerPays, complainedSale, newParcelNumber, sellerCreates } from '../support/sale.ts'
import { expectPdfOpensInViewer } from '../support/pdf-viewer.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { closeSuccess } from '../support/result.ts'
import { reloadUntil } from '../support/reload-until.ts'
import { test } from '../support/test.ts'

/**
 * Two people complete a shipped-goods sale in two browser contexts on the
 * embedded defaults: the seller creates, the buyer joins by code and pays by
 * card, the seller adds tracking, the buyer confirms delivery, the
 * (shortened) complaint window passes and the money is released.
 */
test.describe.configure({ mode: 'serial' })

test('seller and buyer complete a sale, and the money reaches the seller', async ({ browser }) => {
  const seller = await registeredPerson(browser, newPerson('Sam'))
  const buyer = await registeredPerson(browser, newPerson('Bea'))
  const code = await sellerCreates(seller, 'Blue road bicycle', '250.00')
  await buyerJoins(buyer, code)
  // The code's link again (a second tap, a reload after a lost answer): it leads to the transaction, with nothing to join.
  await buyer.goto(`/join-transaction/${code}`)
  await expect(buyer.getByTestId('join-already-yours')).toBeVisible()
  await expect(buyer.getByTestId('join-submit')).toHaveCount(0)
  await expectNoAxeViolations(buyer, 'the join page of a code already used by this person')
  await keepScreenshot(buyer, 'join-already-yours')
  await buyer.getByTestId('join-already-yours').getByRole('link').click()
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'joined')

  await buyerPays(buyer, '4242 4242 4242 4242')
  await closeSuccess(buyer)
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid')
  await keepScreenshot(buyer, 'status-paid-buyer')
  // Before the seller ships, the buyer may give them more time (a week here).
  await buyer.getByTestId('action-extend-tracking-deadline').click()
  const extension = buyer.getByTestId('dialog-extend-tracking-deadline')
  await extension.getByRole('combobox', { name: 'Extra time' }).click()
  await buyer.getByRole('option', { name: '7 days' }).click()
  await keepScreenshot(buyer, 'action-dialog-extend-tracking-deadline')
  await extension.getByTestId('dialog-extend-tracking-deadline-confirm').click()
  await closeSuccess(buyer)

  // The seller sees the payment and adds tracking.
  await seller.goto('/transactions')
  await expect(seller.getByTestId('transaction-row')).toHaveCount(1)
  await expectNoAxeViolations(seller, 'my transactions with a row')
  await seller.getByTestId('transaction-row').first().click()
  await expect(seller.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid')
  await expect(seller.getByTestId('shipping-address')).toContainText('1 Main Street')
  await expectNoAxeViolations(seller, 'the status page')
  await seller.getByTestId('action-track').click()
  await seller.getByTestId('carrier-select').selectOption('dhl')
  await seller.getByTestId('tracking-code-input').fill(newParcelNumber('JD'))
  await keepScreenshot(seller, 'action-dialog-track')
  await seller.getByTestId('dialog-track-confirm').click()
  await expect(seller.getByTestId('transaction-status')).toHaveAttribute('data-status', 'tracked')
  // The seller asks the buyer to confirm receipt: once a day, and the page says when.
  await closeSuccess(seller)
  await seller.getByTestId('action-request-receipt-confirmation').click()
  await seller.getByTestId('dialog-request-receipt-confirmation-confirm').click()
  await closeSuccess(seller)
  await expect(seller.getByTestId('receipt-request-note')).toBeVisible()
  await expect(seller.getByTestId('action-request-receipt-confirmation')).toHaveCount(0)
  await expectNoAxeViolations(seller, 'the status page after asking for a receipt confirmation')
  await keepScreenshot(seller, 'status-receipt-requested-seller')

  // The buyer confirms the delivery; the complaint window (8 s here) starts.
  await buyer.reload()
  await buyer.getByTestId('action-confirm-delivery').click()
  await buyer.getByTestId('dialog-confirm-delivery-confirm').click()
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'delivered')
  await expect(buyer.getByTestId('complaint-deadline')).toBeVisible()
  await keepScreenshot(buyer, 'status-delivered-buyer')

  // The window passes: both see the funds released.
  await reloadUntil(seller, (lookMs) =>
    expect(seller.getByTestId('transaction-status')).toHaveAttribute('data-status', 'funds_released', { timeout: lookMs }),
  )
  await buyer.reload()
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'funds_released')
  await keepScreenshot(seller, 'status-released-seller')

  // The receipt opens in Chromium's PDF viewer, titled with the sale (issue 33).
  const id = new URL(seller.url()).pathname.split('/').pop()!
  await expectPdfOpensInViewer(seller, 'receipt-download', { title: `Pactum receipt ${id}`, screenshot: 'receipt-in-pdf-viewer' })
})

test('a declined card is explained and a retry with a good card pays', async ({ browser }) => {
  const seller = await registeredPerson(browser, newPerson('Sid'))
  const buyer = await registeredPerson(browser, newPerson('Bo'))
  const code = await sellerCreates(seller, 'Vintage camera', '80.00')
  await buyerJoins(buyer, code)
  await buyerPays(buyer, '4000 0000 0000 0002')
  await expect(buyer.getByTestId('payment-error')).toBeVisible()
  await keepScreenshot(buyer, 'checkout-declined')
  await buyer.getByTestId('card-number-input').fill('4242 4242 4242 4242')
  await buyer.getByTestId('pay-submit').click()
  await closeSuccess(buyer)
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid')
})

test('the buyer complains within the window and the money stays held', async ({ browser }) => {
  const seller = await registeredPerson(browser, newPerson('Sue'))
  const buyer = await registeredPerson(browser, newPerson('Ben'))
  await complainedSale(seller, buyer, { description: 'Oak desk', price: '120.00', complaint: 'The desk arrived with a broken leg.' })
  await buyer.waitForTimeout(10_000)
  await buyer.reload()
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'complained')
  // The seller accepts the complaint: the buyer is refunded.
  await seller.reload()
  await seller.getByTestId('action-accept-complaint').click()
  await seller.getByTestId('dialog-accept-complaint-confirm').click()
  await expect(seller.getByTestId('transaction-status')).toHaveAttribute('data-status', 'payment_refunded')
})

test('a create link prefills the form', async ({ browser }) => {
  const seller = await registeredPerson(browser, newPerson('Pia'))
  await seller.goto('/create-transaction?user=SELLER&model=online&cur=GBP&price=12.5&desc=Garden%20chair')
  await expect(seller.getByTestId('role-seller')).toBeChecked()
  await seller.getByTestId('create-next').click()
  await expect(seller.getByTestId('description-input')).toHaveValue('Garden chair')
  await expect(seller.getByTestId('currency-select')).toHaveValue('gbp')
  await expect(seller.getByTestId('price-input')).toHaveValue(/12[.,]50?/)
  await seller.goto('/create-transaction?user=nobody&cur=XXX&price=abc&desc=Lamp')
  await expect(seller.getByTestId('prefill-invalid')).toBeVisible()
})

test('a P24 payment goes through the bank redirect page and back', async ({ browser }) => {
  const seller = await registeredPerson(browser, newPerson('Pat'))
  const buyer = await registeredPerson(browser, newPerson('Piotr'))
  const code = await sellerCreates(seller, 'Mountain tent', '60.00')
  await buyerJoins(buyer, code)
  await buyer.getByTestId('action-pay').click()
  const checkout = buyer.getByTestId('checkout-dialog')
  await checkout.getByLabel('Full name').fill('Piotr Tester')
  await checkout.getByLabel('Address line 1').fill('ul. Długa 1')
  await checkout.getByLabel('Town or city').fill('Kraków')
  await checkout.getByLabel('Postcode').fill('31-001')
  await checkout.getByLabel('Country').selectOption('pl')
  await checkout.getByTestId('checkout-next').click()
  await checkout.getByTestId('checkout-method-p24').check()
  await checkout.getByTestId('checkout-next').click()
  await checkout.getByTestId('pay-submit').click()
  await expect(buyer.getByRole('heading', { name: 'Authorise your payment' })).toBeVisible()
  await expectNoAxeViolations(buyer, 'the P24 redirect page')
  await buyer.getByRole('button', { name: 'Authorise payment' }).click()
  await expect(buyer).toHaveURL(/\/transactions\/[0-9a-f-]{36}/)
  await reloadUntil(buyer, (lookMs) =>
    expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid', { timeout: lookMs }),
  )
})

import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe.ts'
import { keepScreenshot } from './screenshots.ts'
import { closeSuccess } from './result.ts'
import { reloadUntil } from './reload-until.ts'

/** The steps of an online sale as the two people take them in the browser. */

export async function sellerCreates(seller: Page, description: string, price: string): Promise<string> {
  await seller.goto('/create-transaction')
  await seller.getByTestId('role-seller').check()
  await seller.getByTestId('create-next').click()
  await seller.getByTestId('description-input').fill(description)
  await seller.getByTestId('price-input').fill(price)
  await seller.getByTestId('currency-select').selectOption('eur')
  await seller.getByTestId('method-card').check()
  await expect(seller.getByTestId('fee-preview')).toContainText(/\d/)
  await seller.getByTestId('create-next').click()
  await expect(seller.getByTestId('amount-fee')).toBeVisible()
  await expectNoAxeViolations(seller, 'the create review step')
  await seller.getByTestId('create-submit').click()
  const code = (await seller.getByTestId('created-join-code').textContent())?.replace(/\s/g, '') ?? ''
  expect(code).toMatch(/^[A-Z2-9]{8}$/)
  await keepScreenshot(seller, 'created-transaction')
  return code
}

export async function buyerJoins(buyer: Page, code: string) {
  await buyer.goto(`/join-transaction/${code}`)
  await expect(buyer.getByTestId('join-preview')).toBeVisible()
  await expectNoAxeViolations(buyer, 'the join preview')
  await buyer.getByTestId('join-submit').click()
  await expect(buyer).toHaveURL(/\/transactions\/[0-9a-f-]{36}$/)
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'joined')
}

/** The address `buyerPays` ships to (the buyer's profile name is their own, not this one). */
export const shippingAddress = { name: 'Bea Tester', line1: '1 Main Street', city: 'Dublin', postcode: 'D01 F5P2', country: 'ie' }

export async function buyerPays(buyer: Page, card: string) {
  await buyer.getByTestId('action-pay').click()
  const checkout = buyer.getByTestId('checkout-dialog')
  await expect(checkout).toBeVisible()
  // The checkout always starts with the shipping address, then the method.
  await checkout.getByLabel('Full name').fill(shippingAddress.name)
  await checkout.getByLabel('Address line 1').fill(shippingAddress.line1)
  await checkout.getByLabel('Town or city').fill(shippingAddress.city)
  await checkout.getByLabel('Postcode').fill(shippingAddress.postcode)
  await checkout.getByLabel('Country').selectOption(shippingAddress.country)
  await checkout.getByTestId('checkout-next').click()
  await checkout.getByTestId('checkout-method-card').check()
  await checkout.getByTestId('checkout-next').click()
  await expect(checkout.getByTestId('card-number-input')).toBeVisible()
  await expectNoAxeViolations(buyer, 'the checkout dialog')
  await checkout.getByTestId('card-number-input').fill(card)
  await checkout.getByTestId('pay-submit').click()
}

/** A parcel number of its own: the server refuses one already on another buyer's sale, and the tests share a server. */
export function newParcelNumber(prefix: string): string {
  return `${prefix}${Date.now()}${Math.floor(Math.random() * 10_000)}`
}

/** From a joined transaction to funds released: the buyer pays by card, the seller tracks, the buyer confirms, the window passes. */
export async function completeSale(seller: Page, buyer: Page) {
  await buyerPays(buyer, '4242 4242 4242 4242')
  await closeSuccess(buyer)
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid')
  await seller.goto('/transactions')
  await seller.getByTestId('transaction-row').first().click()
  await expect(seller.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid')
  await seller.getByTestId('action-track').click()
  await seller.getByTestId('carrier-select').selectOption('dhl')
  await seller.getByTestId('tracking-code-input').fill(newParcelNumber('JD'))
  await seller.getByTestId('dialog-track-confirm').click()
  await expect(seller.getByTestId('transaction-status')).toHaveAttribute('data-status', 'tracked')
  await buyer.reload()
  await buyer.getByTestId('action-confirm-delivery').click()
  await buyer.getByTestId('dialog-confirm-delivery-confirm').click()
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'delivered')
  await reloadUntil(seller, (lookMs) =>
    expect(seller.getByTestId('transaction-status')).toHaveAttribute('data-status', 'funds_released', { timeout: lookMs }),
  )
}

/** The seller ships and the buyer, once it arrives, complains: the money stays held for the seller's answer or an admin. */
export async function complainedSale(
  seller: Page,
  buyer: Page,
  item: { description: string; price: string; complaint: string },
): Promise<void> {
  const code = await sellerCreates(seller, item.description, item.price)
  await buyerJoins(buyer, code)
  await buyerPays(buyer, '4242424242424242')
  await closeSuccess(buyer)
  await seller.goto('/transactions')
  await seller.getByTestId('transaction-row').first().click()
  await seller.getByTestId('action-track').click()
  await seller.getByTestId('carrier-select').selectOption('ups')
  await seller.getByTestId('tracking-code-input').fill(newParcelNumber('1Z'))
  await seller.getByTestId('dialog-track-confirm').click()
  await buyer.reload()
  await buyer.getByTestId('action-confirm-delivery').click()
  await buyer.getByTestId('dialog-confirm-delivery-confirm').click()
  await closeSuccess(buyer)
  await buyer.getByTestId('action-complain').click()
  await buyer.getByRole('dialog').getByRole('textbox').fill(item.complaint)
  await buyer.getByTestId('dialog-complain-confirm').click()
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'complained')
}

import { expect, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe.ts'
import { keepScreenshot } from './screenshots.ts'
import { closeSuccess } from './result.ts'

/** The steps of a face-to-face sale as the two people take them in the browser. */

export async function sellerCreatesFaceToFace(seller: Page, description: string, deposit: string): Promise<string> {
  await seller.goto('/create-transaction?model=f2f')
  await expect(seller.getByTestId('mode-face')).toHaveAttribute('aria-pressed', 'true')
  await seller.getByTestId('role-seller').check()
  await seller.getByTestId('description-input').fill(description)
  await seller.getByTestId('currency-select').selectOption('eur')
  await expectNoAxeViolations(seller, 'the face-to-face create form')
  await seller.getByTestId('create-next').click()
  await seller.getByTestId('deposit-input').fill(deposit)
  await expect(seller.getByTestId('amount-fee')).toContainText(/\d/)
  await expectNoAxeViolations(seller, 'the deposit step')
  await keepScreenshot(seller, 'f2f-create-deposit')
  await seller.getByTestId('create-submit').click()
  const code = (await seller.getByTestId('created-join-code').textContent())?.replace(/\s/g, '') ?? ''
  expect(code).toMatch(/^[A-Z2-9]{8}$/)
  return code
}

export async function buyerJoinsFaceToFace(buyer: Page, code: string) {
  await buyer.goto(`/join-transaction/${code}`)
  await expect(buyer.getByTestId('preview-kind')).toBeVisible()
  await expectNoAxeViolations(buyer, 'the face-to-face join preview')
  await buyer.getByTestId('join-submit').click()
  await expect(buyer).toHaveURL(/\/transactions\/[0-9a-f-]{36}$/)
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute('data-status', 'joined')
}

/** The buyer pays the deposit (method step, then card) or the remainder (card only, the deposit's method). */
export async function buyerPaysByCard(buyer: Page, part: 'deposit' | 'remainder') {
  await buyer.getByTestId(`action-pay-${part}`).click()
  const checkout = buyer.getByTestId('checkout-dialog')
  await expect(checkout).toBeVisible()
  if (part === 'deposit') {
    await checkout.getByTestId('checkout-method-card').check()
    await checkout.getByTestId('checkout-next').click()
  }
  await expect(checkout.getByTestId('card-number-input')).toBeVisible()
  await expectNoAxeViolations(buyer, `the ${part} checkout`)
  await checkout.getByTestId('card-number-input').fill('4242 4242 4242 4242')
  await checkout.getByTestId('pay-submit').click()
  await closeSuccess(buyer)
  await expect(buyer.getByTestId('transaction-status')).toHaveAttribute(
    'data-status',
    part === 'deposit' ? 'deposit_paid' : 'remainder_paid',
  )
}

/** Confirms the step behind one action button in its dialog and waits for the new state. */
export async function confirmStep(page: Page, action: string, status: string) {
  await page.getByTestId(`action-${action}`).click()
  await page.getByTestId(`dialog-${action}-confirm`).click()
  await expect(page.getByTestId('transaction-status')).toHaveAttribute('data-status', status)
  await closeSuccess(page)
}

export async function openLatest(page: Page, status: string) {
  await page.goto('/transactions')
  await page.getByTestId('transaction-row').first().click()
  await expect(page.getByTestId('transaction-status')).toHaveAttribute('data-status', status)
}

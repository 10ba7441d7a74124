import { expect } from 'vitest'
import { acceptedCard, type SaleCall } from './sale-steps.ts'

/*
 * The steps of a face-to-face sale that the /p2p integration tests take to
 * reach the state they are about; each asserts its own outcome.
 */

export interface F2fTerms {
  currency: string
  description: string
  deposit_price: number
}

const camera: F2fTerms = { currency: 'eur', description: 'A film camera, met at the station', deposit_price: 5_000 }

/** The seller offers a face-to-face sale with a deposit at the fee the quote showed. */
export async function createF2fSale(
  call: SaleCall,
  terms: Partial<F2fTerms> = {},
  options: { clientId?: string; creator?: 'seller' | 'buyer' } = {},
) {
  const sale = { ...camera, ...terms }
  const creator = options.creator ?? 'seller'
  const quote = await call(creator, 'GET', `/api/v1/p2p/charge?price=${sale.deposit_price}&currency=${sale.currency}&payment_method=card`)
  expect(quote.status).toBe(200)
  const created = await call(creator, 'POST', `/api/v1/p2p/me/transactions${options.clientId ? `?client_id=${options.clientId}` : ''}`, {
    role: creator,
    ...sale,
    deposit_charge: quote.body.charge,
    charge_calculator_version: quote.body.charge_calculator_version,
  })
  expect(created.status).toBe(201)
  return { id: created.body.id as string, joinCode: created.body.join_code as string, quote: quote.body, created: created.body }
}

/** Created by the seller and joined by the buyer through the code. */
export async function joinedF2fSale(call: SaleCall, terms: Partial<F2fTerms> = {}, options: { clientId?: string } = {}) {
  const sale = await createF2fSale(call, terms, options)
  const joined = await call('buyer', 'POST', `/api/v1/p2p/transactions_by_join_code/${sale.joinCode}/join`)
  expect(joined).toMatchObject({ status: 200, body: { status: 'joined', role: 'buyer' } })
  return sale
}

/** The buyer opens the deposit or remainder payment and the provider takes the card; Pactum has not heard yet. */
export async function submitF2fCard(call: SaleCall, id: string, part: 'deposit' | 'remainder', card = acceptedCard) {
  const opened = await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/pay_${part}`)
  expect(opened.status).toBe(200)
  const intentId: string = opened.body.payment_intent_id
  const confirmed = await call(null, 'POST', `/sandbox/v1/payment_intents/${intentId}/confirm`, {
    client_secret: opened.body.client_secret,
    card_number: card,
  })
  expect(confirmed.status).toBe(200)
  return { intentId, charge: opened.body.charge as number, confirmation: confirmed.body }
}

/** The buyer pays that part by card and the page reports it: Pactum holds it. */
export async function payF2fByCard(call: SaleCall, id: string, part: 'deposit' | 'remainder') {
  const { intentId, confirmation } = await submitF2fCard(call, id, part)
  expect(confirmation.status).toBe('succeeded')
  const confirmed = await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/confirm_payment`, { payment_intent_id: intentId })
  expect(confirmed.body.status).toBe(part === 'deposit' ? 'deposit_paid' : 'remainder_paid')
  return { intentId, transaction: confirmed.body }
}

/** Deposit paid by card and accepted by the seller. */
export async function depositAccepted(call: SaleCall, id: string) {
  await payF2fByCard(call, id, 'deposit')
  const accepted = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/accept_deposit`)
  expect(accepted.body.status).toBe('deposit_accepted')
  return accepted.body
}

/** The seller sets the total at the remainder fee the quote showed. */
export async function setTotal(call: SaleCall, id: string, total: number) {
  const quote = await call('seller', 'GET', `/api/v1/p2p/transactions/${id}/charge?price=${total}`)
  expect(quote.status).toBe(200)
  const priced = await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/set_price`, {
    price: total,
    charge: quote.body.charge,
    charge_calculator_version: quote.body.charge_calculator_version,
  })
  expect(priced.body.status).toBe('priced')
  return priced.body
}

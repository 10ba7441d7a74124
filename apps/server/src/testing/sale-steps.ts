import { expect } from 'vitest'
import type { ApiCall } from './api-caller.ts'

/*
 * The steps of a card sale that many integration tests take to reach the
 * state they are about. Each asserts its own outcome, so that a failure
 * names the step rather than a later, puzzled assertion.
 */

/** Any caller with a seller and a buyer among its parties. */
export type SaleCall = ApiCall<'seller' | 'buyer'>

export interface SaleTerms {
  price: number
  currency: string
  description: string
  payment_method: string
}

const blueBicycle: SaleTerms = { price: 10_000, currency: 'eur', description: 'A blue bicycle', payment_method: 'card' }

/** The sandbox provider's card that always goes through. */
export const acceptedCard = '4242424242424242'

/**
 * The seller lists a sale at the fee the quote showed; `clientId` is the app
 * it was listed through, which the high-value gate looks at.
 */
export async function createSale(call: SaleCall, terms: Partial<SaleTerms> = {}, options: { clientId?: string } = {}) {
  const sale = { ...blueBicycle, ...terms }
  const quote = await call(
    'seller',
    'GET',
    `/api/v1/charge?price=${sale.price}&currency=${sale.currency}&payment_method=${sale.payment_method}`,
  )
  expect(quote.status).toBe(200)
  const created = await call('seller', 'POST', `/api/v1/me/transactions${options.clientId ? `?client_id=${options.clientId}` : ''}`, {
    role: 'seller',
    ...sale,
    charge: quote.body.charge,
    charge_calculator_version: quote.body.charge_calculator_version,
  })
  expect(created.status).toBe(201)
  return { id: created.body.id as string, joinCode: created.body.join_code as string, quote: quote.body, created: created.body }
}

export async function joinSale(call: SaleCall, joinCode: string) {
  const joined = await call('buyer', 'PUT', `/api/v1/transactions?join_code=${joinCode}`)
  expect(joined).toMatchObject({ status: 200, body: { status: 'joined' } })
  return joined.body
}

/** A sale the buyer has joined, waiting for their payment. */
export async function joinedSale(call: SaleCall, terms: Partial<SaleTerms> = {}, options: { clientId?: string } = {}) {
  const sale = await createSale(call, terms, options)
  await joinSale(call, sale.joinCode)
  return sale
}

/**
 * The buyer opens a payment and enters `card` on the provider's page, which
 * is not signed in to Pactum; Pactum has not heard of the outcome yet.
 */
export async function submitCard(call: SaleCall, id: string, card = acceptedCard) {
  const opened = await call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
  expect(opened.status).toBe(200)
  const intentId: string = opened.body.payment_intent_id
  const clientSecret: string = opened.body.client_secret
  const confirmed = await call(null, 'POST', `/sandbox/v1/payment_intents/${intentId}/confirm`, {
    client_secret: clientSecret,
    card_number: card,
  })
  expect(confirmed.status).toBe(200)
  return { intentId, clientSecret, confirmation: confirmed.body }
}

/** The buyer's page tells Pactum the payment went through, before the provider's webhook does. */
export async function confirmPayment(call: SaleCall, id: string, intentId: string) {
  const confirmed = await call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: intentId })
  expect(confirmed.body.status).toBe('paid')
  return confirmed.body
}

/**
 * The buyer (a company user) pays by SEPA Direct Debit and the page tells
 * Pactum: the debit is processing, the sale still joined with a payment in progress.
 */
export async function sepaProcessing(call: SaleCall, id: string) {
  await call('buyer', 'POST', `/api/v1/transactions/${id}/set_payment_method`, { payment_method: 'sepa' })
  const opened = await call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
  const { payment_intent_id: intentId, client_secret: clientSecret } = opened.body
  const submitted = await call(null, 'POST', `/sandbox/v1/payment_intents/${intentId}/confirm`, {
    client_secret: clientSecret,
    iban: 'DE89370400440532013000',
  })
  expect(submitted.body.status).toBe('processing')
  const reported = await call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: intentId })
  expect(reported.body).toMatchObject({ status: 'joined', is_payment_in_progress: true })
  return { intentId: intentId as string }
}

/** The buyer pays with the accepted card and Pactum holds the money. */
export async function payByCard(call: SaleCall, id: string) {
  const { intentId, clientSecret, confirmation } = await submitCard(call, id)
  expect(confirmation.status).toBe('succeeded')
  const transaction = await confirmPayment(call, id, intentId)
  return { intentId, clientSecret, transaction }
}

export async function track(call: SaleCall, id: string, tracking: { carrier: string; tracking_code: string }) {
  const tracked = await call('seller', 'POST', `/api/v1/transactions/${id}/track`, tracking)
  expect(tracked.status).toBe(200)
  return tracked.body
}

export async function confirmDelivery(call: SaleCall, id: string) {
  const delivered = await call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_delivery`)
  expect(delivered.body.status).toBe('delivered')
  return delivered.body
}

/** Paid by card, shipped, delivered and complained about as damaged: a case is open. */
export async function complainAfterDelivery(call: SaleCall, id: string, description = 'The frame arrived cracked') {
  await payByCard(call, id)
  // A parcel number of its own: one app may hold several such sales, and a parcel belongs to one sale.
  await track(call, id, { carrier: 'dhl', tracking_code: `JD${id.slice(-8)}` })
  await confirmDelivery(call, id)
  const complained = await call('buyer', 'POST', `/api/v1/transactions/${id}/complain_with_description`, { description, reason: 'damaged' })
  expect(complained.status).toBe(200)
  return complained.body
}

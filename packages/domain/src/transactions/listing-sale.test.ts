import { describe, expect, it } from 'vitest'
import { availableActions } from './available-actions.ts'
import { createF2fTransaction } from './f2f-state.ts'
import type { Actor } from './kernel.ts'
import { awaitsSellerAcceptance, boughtFromListing } from './listing-sale.ts'
import { createOnlineTransaction } from './online-state.ts'
import { type TransactionEvent, type TransactionState, transition } from './transaction.ts'
import { f2fOffer, onlineOffer } from './testing/offers.ts'
import { at, buyer, counterparty, seller, t0 } from './testing/shared-machine-cases.ts'

const later = at(3_600)

/** Bought from a listing: the buyer `u_buyer` created it, the seller `u_seller` has yet to accept. */
function fromListing(created: TransactionState): TransactionState {
  return boughtFromListing(created, 'u_seller')
}
const asBuyer = { creatorRole: 'buyer', creatorId: 'u_buyer' } as const
const onlineSale = () => fromListing(createOnlineTransaction(onlineOffer(asBuyer), t0))
const f2fSale = () => fromListing(createF2fTransaction(f2fOffer(asBuyer), t0))

function run(state: TransactionState, event: TransactionEvent, actor: Actor): TransactionState {
  const result = transition(state, event, actor, later)
  if (!result.ok) throw new Error(`refused: ${result.code}`)
  return result.next
}

const pay = (state: TransactionState): TransactionEvent =>
  state.kind === 'online'
    ? { type: 'payment_intent_opened', paymentIntentId: 'pi_1' }
    : { type: 'payment_intent_opened', part: 'deposit', paymentIntentId: 'pi_1' }

describe.each([
  ['online', onlineSale],
  ['f2f', f2fSale],
])('a %s sale from a listing', (_kind, sale) => {
  it('starts with both parties, no join code, awaiting the seller', () => {
    const state = sale()
    expect(state).toMatchObject({ status: 'created', creatorRole: 'buyer', buyerId: 'u_buyer', sellerId: 'u_seller', joinCode: null })
    expect(awaitsSellerAcceptance(state)).toBe(true)
  })

  it('refuses the payment before the seller accepts', () => {
    expect(transition(sale(), pay(sale()), buyer, later)).toEqual({ ok: false, code: 'not_accepted', status: 409 })
  })

  it('lets the seller accept: an ordinary joined transaction the buyer can pay, the buyer told', () => {
    const result = transition(sale(), { type: 'accept_listing' }, seller, later)
    if (!result.ok) throw new Error(result.code)
    expect(result.next.status).toBe('joined')
    expect(result.next.timestamps.joined).toEqual(later)
    expect(result.effects).toEqual([{ type: 'notify', template: 'listing_accepted', to: 'buyer' }])
    expect(transition(result.next, pay(result.next), buyer, later).ok).toBe(true)
    expect(awaitsSellerAcceptance(result.next)).toBe(false)
  })

  it('lets the seller reject: terminal, the buyer told', () => {
    const result = transition(sale(), { type: 'reject_listing' }, seller, later)
    if (!result.ok) throw new Error(result.code)
    expect(result.next.status).toBe('rejected')
    expect(result.effects).toEqual([{ type: 'notify', template: 'listing_rejected', to: 'buyer' }])
    expect(transition(result.next, { type: 'accept_listing' }, seller, later)).toEqual({
      ok: false,
      code: 'already_cancelled',
      status: 409,
    })
  })

  it('refuses acceptance by anyone but the seller, and twice', () => {
    for (const actor of [buyer, counterparty, { kind: 'admin' } as Actor, { kind: 'system' } as Actor]) {
      expect(transition(sale(), { type: 'accept_listing' }, actor, later)).toEqual({ ok: false, code: 'not_seller', status: 403 })
      expect(transition(sale(), { type: 'reject_listing' }, actor, later)).toEqual({ ok: false, code: 'not_seller', status: 403 })
    }
    const joined = run(sale(), { type: 'accept_listing' }, seller)
    expect(transition(joined, { type: 'accept_listing' }, seller, later)).toEqual({ ok: false, code: 'already_joined', status: 409 })
    expect(transition(joined, { type: 'reject_listing' }, seller, later)).toEqual({ ok: false, code: 'already_joined', status: 409 })
  })

  it('cannot be joined, rejected by code, or edited while it waits', () => {
    expect(transition(sale(), { type: 'join', userId: 'u_other' }, counterparty, later)).toEqual({
      ok: false,
      code: 'already_joined',
      status: 409,
    })
    expect(transition(sale(), { type: 'reject' }, counterparty, later)).toEqual({ ok: false, code: 'already_joined', status: 409 })
    expect(transition(sale(), { type: 'update', description: 'cheaper' }, buyer, later)).toEqual({
      ok: false,
      code: 'already_joined',
      status: 409,
    })
  })

  it('lets the buyer withdraw, telling the seller', () => {
    const cancel: TransactionEvent = sale().kind === 'online' ? { type: 'cancel' } : { type: 'cancel', description: 'cancelled by creator' }
    const result = transition(sale(), cancel, buyer, later)
    if (!result.ok) throw new Error(result.code)
    expect(result.next.status).toBe('cancelled')
    expect(result.effects).toEqual([{ type: 'notify', template: 'cancelled', to: 'seller' }])
  })

  it('offers the seller accept and reject, the buyer only a cancel', () => {
    const cancelAction = sale().kind === 'online' ? 'cancel' : 'cancel_with_description'
    expect(availableActions(sale(), seller, later)).toEqual(['accept_listing_transaction', 'reject_listing_transaction'])
    expect(availableActions(sale(), buyer, later)).toEqual([cancelAction])
  })
})

describe('a transaction created with a join code', () => {
  it('has no listing acceptance (404, as a path it does not have)', () => {
    const created = createOnlineTransaction(onlineOffer({ ...asBuyer, paymentMethod: undefined }), t0)
    expect(awaitsSellerAcceptance(created)).toBe(false)
    expect(transition(created, { type: 'accept_listing' }, seller, later)).toEqual({ ok: false, code: 'not_found', status: 404 })
  })
})

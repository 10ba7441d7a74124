import { describe, expect, it } from 'vitest'
import {
  type Actor,
  type CommonState,
  type Effect,
  type HoldPart,
  type Party,
  type RefusalCode,
  type RefusalStatus,
  type Result,
  type ReturnReason,
  type StatePosting,
  type Step,
} from '../kernel.ts'
import { matchesFilter, type NextActor, type TransactionFilter, whoMustAct } from '../list-filters.ts'
import type { CommonEvent } from '../shared-handlers.ts'
import { escrowBalance, isTerminal, type TransactionState } from '../transaction.ts'

/**
 * The behaviour both machines share through the kernel and the shared
 * handlers (joining, rejecting, cancelling before any money, a failed
 * payment, money sent back unheld, the complaint window), tested once and run
 * by each kind's test file with its own fixture (a `MachineUnderTest`). What
 * only one kind does stays in that kind's file.
 */

export const t0 = new Date('2026-03-01T12:00:00Z')
export const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000)
export const day = 86_400

export const buyer: Actor = { kind: 'buyer' }
export const seller: Actor = { kind: 'seller' }
export const admin: Actor = { kind: 'admin' }
export const system: Actor = { kind: 'system' }
export const counterparty: Actor = { kind: 'counterparty' }
export const partner: Actor = { kind: 'partner' }

export function accept<S>(result: Result<S>): Step<S> {
  if (!result.ok) throw new Error(`refused: ${result.code}`)
  return result
}

export function expectRefusal(result: Result<unknown>, code: RefusalCode, status: RefusalStatus) {
  expect(result).toEqual({ ok: false, code, status })
}

/** A no-op step: the very same state back, and only these effects. */
export function expectNoop<S>(state: S, result: Result<S>, effects: readonly Effect[] = []) {
  expect(result).toEqual({ ok: true, next: state, effects })
  if (result.ok) expect(result.next).toBe(state)
}

export function ledger(effects: readonly Effect[]) {
  return effects.filter((effect) => effect.type === 'ledger')
}

// The ledger entries the tests expect, in eur, written out once.

/** A payment of `amount` held: from the buyer's funding into escrow. */
export function holdEntry(amount: number, part: HoldPart): Effect {
  return {
    type: 'ledger',
    entry: 'hold',
    part,
    postings: [
      { account: 'buyer_funding', amount: -amount, currency: 'eur' },
      { account: 'escrow', amount, currency: 'eur' },
    ],
  }
}

/** Everything `held` leaves escrow: `payout` to the seller, `fees` to revenue. */
export function releaseEntry(held: number, payout: number, fees: number): Effect {
  return {
    type: 'ledger',
    entry: 'release',
    postings: [
      { account: 'escrow', amount: -held, currency: 'eur' },
      { account: 'seller', amount: payout, currency: 'eur' },
      { account: 'revenue', amount: fees, currency: 'eur' },
    ],
  }
}

/** Everything `held` leaves escrow: `refunded` back to the buyer and, when a fee is kept, `kept` to revenue. */
export function refundEntry(held: number, refunded: number, kept?: number): Effect {
  const postings: StatePosting[] = [
    { account: 'escrow', amount: -held, currency: 'eur' },
    { account: 'buyer_refund', amount: refunded, currency: 'eur' },
  ]
  if (kept !== undefined) postings.push({ account: 'revenue', amount: kept, currency: 'eur' })
  return { type: 'ledger', entry: 'refund', postings }
}

/** A refund the provider is asked for: its idempotency action, amount and payment. */
export type RefundCallSeen = readonly [idempotencyAction: string, amount: number, paymentIntentId: string]

/** A state an admin may settle: what is held there, and what a release pays out to the seller (the rest is fees). */
export interface Settleable<S> {
  readonly name: string
  readonly build: () => S
  readonly held: number
  readonly payout: number
  /** The provider refunds a refund to the buyer asks for, one a payment. */
  readonly refunds: readonly RefundCallSeen[]
}

/**
 * One kind's fixture, walked through its own table. The complaint window of
 * `inWindow` runs from 2 days to 3 days after t0.
 */
export interface MachineUnderTest<S extends CommonState<string>> {
  readonly transition: (state: S, event: CommonEvent, actor: Actor, now: Date) => Result<S>
  /** The kind's own cancel event (face-to-face: with a description). */
  readonly cancel: (state: S, actor: Actor, now: Date) => Result<S>
  /** Offered by `creatorRole` ('seller' by default) with id `u_creator` and join code ABCDEFGH. */
  readonly created: (creatorRole?: Party) => S
  /** `created()` joined by `u_joiner` at 60 s. */
  readonly joined: () => S
  /** The first payment opened by the buyer (`paymentIntentId`), not on its way yet. */
  readonly opened: () => S
  /** That payment processing (SEPA). */
  readonly processing: () => S
  readonly paymentIntentId: string
  /** That payment held. */
  readonly held: () => S
  readonly cancelled: () => S
  readonly rejected: () => S
  /** Money held, the window not open yet. */
  readonly beforeWindow: () => S[]
  readonly inWindow: () => S
  /** Complained at 2 days + 60 s. */
  readonly complained: () => S
  /** Released by the buyer at 2 days + 60 s. */
  readonly fundsReleased: () => S
  /** Over by a cancellation or a refund: every step answers already_cancelled. */
  readonly cancelledStates: () => S[]
  /** What is held in the window, and what its end pays out to the seller (the rest is fees). */
  readonly heldInWindow: number
  readonly released: number
  /** The provider refunds of everything held in the window. */
  readonly refundsInWindow: readonly RefundCallSeen[]
  /** The status of a sale cancelled with money held, waiting for the provider's refund. */
  readonly refundingStatus: string
  /** Sales under way, each with whose move it is. */
  readonly underWay: readonly (readonly [name: string, build: () => S, next: NextActor])[]
  readonly settleable: readonly Settleable<S>[]
}

/**
 * A payment the sale does not hold: sent straight back, and on the record
 * (refunded amount, ledger, history, the buyer's e-mail); once, however
 * often it is reported. Answers the state after it.
 */
export function expectReturnedUnheld<S extends CommonState<string>>(
  machine: Pick<MachineUnderTest<S>, 'transition'>,
  state: S,
  payment: { paymentIntentId: string; amount: number; part: HoldPart; reason: ReturnReason; now?: Date },
): S {
  const { paymentIntentId, amount, part, reason } = payment
  const succeeded: CommonEvent = { type: 'payment_succeeded', paymentIntentId, amount }
  const now = payment.now ?? t0
  const { next, effects } = accept(machine.transition(state, succeeded, system, now))
  expect(next).toEqual({
    ...state,
    isPaymentInProgress: false,
    amountRefunded: state.amountRefunded + amount,
    returnedPaymentIntentIds: [...state.returnedPaymentIntentIds, paymentIntentId],
  })
  expect(effects).toEqual([
    {
      type: 'ledger',
      entry: 'refund_unheld',
      part,
      reason,
      postings: [
        { account: 'buyer_funding', amount: -amount, currency: 'eur' },
        { account: 'buyer_refund', amount, currency: 'eur' },
      ],
    },
    { type: 'provider', action: 'refund', amount, currency: 'eur', idempotencyAction: `refund-unheld:${paymentIntentId}`, paymentIntentId },
    { type: 'history', event: 'refund_unheld', reason },
    { type: 'notify', template: 'payment_returned', to: 'buyer', returned: { amount, reason } },
  ])
  // Reported again (the webhook and the browser both tell): recorded once, never held.
  expectNoop(next, machine.transition(next, succeeded, system, new Date(now.getTime() + day * 1000)))
  return next
}

/**
 * A finished sale is never left and moves no held money: of `events`, from
 * every actor, it takes only the system's `news` (late payments, timers,
 * reports), changing nothing but sending money that arrives late straight back.
 */
export function expectNeverLeft<S extends CommonState<string>, E extends { readonly type: string }>(
  transition: (state: S, event: E, actor: Actor, now: Date) => Result<S>,
  state: S,
  events: readonly E[],
  news: readonly E['type'][],
) {
  expect(isTerminal(state as unknown as TransactionState)).toBe(true)
  for (const event of events) {
    for (const actor of [buyer, seller, admin, system, counterparty]) {
      const result = transition(state, event, actor, at(30 * day))
      if (!result.ok) continue
      // Only money that arrives late is sent straight back, and recorded as such: escrow is not touched.
      expect({
        ...result.next,
        amountRefunded: state.amountRefunded,
        returnedPaymentIntentIds: state.returnedPaymentIntentIds,
      }).toEqual(state)
      for (const effect of result.effects) {
        if (effect.type === 'provider') expect(effect.idempotencyAction.startsWith('refund-unheld:')).toBe(true)
        else if (effect.type === 'ledger') expect(effect.entry).toBe('refund_unheld')
        else expect(effect).toMatchObject({ type: expect.stringMatching(/^(history|notify)$/) })
      }
      expect(news, `${event.type} by ${actor.kind}`).toContain(event.type)
    }
  }
}

export function sharedMachineCases<S extends CommonState<string>>(m: MachineUnderTest<S>) {
  const join: CommonEvent = { type: 'join', userId: 'u_joiner' }
  // The window's end: everything held leaves escrow, the payout to the seller (transferred citing the first payment), the fees kept.
  const releaseEffects: Effect[] = [
    releaseEntry(m.heldInWindow, m.released, m.heldInWindow - m.released),
    {
      type: 'provider',
      action: 'transfer',
      amount: m.released,
      currency: 'eur',
      idempotencyAction: 'transfer',
      paymentIntentId: m.paymentIntentId,
    },
    { type: 'notify', template: 'funds_released', to: 'seller' },
    { type: 'notify', template: 'funds_released', to: 'buyer' },
  ]

  describe('joining, rejecting and cancelling before any money (both kinds)', () => {
    it('lets the counterparty join as the party the creator left open, and tells the creator', () => {
      const { next, effects } = accept(m.transition(m.created(), join, counterparty, at(60)))
      expect(next).toMatchObject({ status: 'joined', buyerId: 'u_joiner', sellerId: 'u_creator', joinCode: null })
      expect(next.timestamps.joined).toEqual(at(60))
      expect(effects).toEqual([{ type: 'notify', template: 'joined', to: 'seller' }])
      const byBuyer = accept(m.transition(m.created('buyer'), join, counterparty, at(60)))
      expect(byBuyer.next).toMatchObject({ status: 'joined', buyerId: 'u_creator', sellerId: 'u_joiner' })
      expect(byBuyer.effects).toEqual([{ type: 'notify', template: 'joined', to: 'buyer' }])
    })
    it('refuses joining: after joining, after cancelling, by the creator, by others, without a user', () => {
      expectRefusal(m.transition(m.joined(), join, counterparty, t0), 'already_joined', 409)
      expectRefusal(m.transition(m.held(), join, counterparty, t0), 'already_joined', 409)
      expectRefusal(m.transition(m.cancelled(), join, counterparty, t0), 'already_cancelled', 409)
      expectRefusal(m.transition(m.rejected(), join, counterparty, t0), 'already_cancelled', 409)
      expectRefusal(m.transition(m.created('seller'), join, seller, t0), 'cannot_join_own_transaction', 403)
      expectRefusal(m.transition(m.created(), { type: 'join', userId: 'u_creator' }, counterparty, t0), 'cannot_join_own_transaction', 403)
      expectRefusal(m.transition(m.created('buyer'), join, buyer, t0), 'cannot_join_own_transaction', 403)
      expectRefusal(m.transition(m.created(), join, admin, t0), 'forbidden', 403)
      expectRefusal(m.transition(m.created(), join, system, t0), 'forbidden', 403)
      expectRefusal(m.transition(m.created(), { type: 'join', userId: '' }, counterparty, t0), 'validation_failed', 400)
    })
    it('lets the counterparty reject, and tells the creator', () => {
      for (const creatorRole of ['seller', 'buyer'] as const) {
        const { next, effects } = accept(m.transition(m.created(creatorRole), { type: 'reject' }, counterparty, at(5)))
        expect(next).toMatchObject({ status: 'rejected', joinCode: null })
        expect(next.timestamps.rejected).toEqual(at(5))
        expect(effects).toEqual([{ type: 'notify', template: 'rejected', to: creatorRole }])
      }
    })
    it('refuses a reject by anyone else or once joined', () => {
      for (const actor of [seller, buyer, admin]) expectRefusal(m.transition(m.created(), { type: 'reject' }, actor, t0), 'forbidden', 403)
      expectRefusal(m.transition(m.joined(), { type: 'reject' }, counterparty, t0), 'already_joined', 409)
      expectRefusal(m.transition(m.rejected(), { type: 'reject' }, counterparty, t0), 'already_cancelled', 409)
    })
    it('lets the creator cancel silently, and no one else', () => {
      const { next, effects } = accept(m.cancel(m.created('buyer'), buyer, at(5)))
      expect(next).toMatchObject({ status: 'cancelled', joinCode: null })
      expect(next.timestamps.cancelled).toEqual(at(5))
      expect(effects).toEqual([])
      expectRefusal(m.cancel(m.created('buyer'), counterparty, t0), 'not_buyer', 403)
      expectRefusal(m.cancel(m.created('buyer'), admin, t0), 'not_buyer', 403)
      expectRefusal(m.cancel(m.created('seller'), buyer, t0), 'not_seller', 403)
      expectRefusal(m.cancel(m.created('seller'), counterparty, t0), 'not_seller', 403)
    })
    it('lets either party cancel once joined, before any money, telling the other', () => {
      for (const from of [m.joined, m.opened]) {
        for (const actor of [buyer, seller]) {
          const { next, effects } = accept(m.cancel(from(), actor, at(90)))
          expect(next).toMatchObject({ status: 'cancelled', amountHeld: 0 })
          expect(next.timestamps.cancelled).toEqual(at(90))
          expect(effects).toEqual([{ type: 'notify', template: 'cancelled', to: actor.kind === 'buyer' ? 'seller' : 'buyer' }])
        }
      }
      for (const actor of [admin, counterparty, system]) expectRefusal(m.cancel(m.joined(), actor, t0), 'forbidden', 403)
      expectRefusal(m.cancel(m.cancelled(), seller, t0), 'already_cancelled', 409)
    })
  })

  describe("a partner client's sale (both kinds)", () => {
    /** Made by a partner for the party in `creatorRole`, invited by e-mail and not claimed yet; the join code is for the other. */
    const partnerSale = (creatorRole: Party = 'seller'): S => ({ ...m.created(creatorRole), buyerId: null, sellerId: null })

    it('lets the partner call the sale off before anyone paid, telling every party who has taken their place', () => {
      const cases: Array<[S, Party[]]> = [
        [partnerSale(), []],
        [m.created('seller'), ['seller']],
        [m.created('buyer'), ['buyer']],
        [m.joined(), ['buyer', 'seller']],
        [m.opened(), ['buyer', 'seller']],
      ]
      for (const [state, told] of cases) {
        const { next, effects } = accept(m.cancel(state, partner, at(90)))
        expect(next).toMatchObject({ status: 'cancelled', joinCode: null, amountHeld: 0 })
        expect(next.timestamps.cancelled).toEqual(at(90))
        expect(effects).toEqual(told.map((to) => ({ type: 'notify', template: 'cancelled_by_partner', to })))
      }
    })

    it('refuses the partner once a payment is on its way, once paid, and once over', () => {
      const processing = m.cancel(m.processing(), partner, t0)
      expect(processing.ok).toBe(false)
      if (!processing.ok) {
        expect(['payment_in_progress', 'deposit_payment_in_review']).toContain(processing.code)
        expect(processing.status).toBe(409)
      }
      for (const state of [m.held(), ...m.beforeWindow(), m.inWindow(), m.complained()]) {
        expectRefusal(m.cancel(state, partner, t0), 'already_paid', 409)
      }
      expectRefusal(m.cancel(m.cancelled(), partner, t0), 'already_cancelled', 409)
      expectRefusal(m.cancel(m.rejected(), partner, t0), 'already_cancelled', 409)
      expectRefusal(m.cancel(m.fundsReleased(), partner, t0), 'funds_already_released', 409)
    })

    it('refuses the partner every other step before anyone paid', () => {
      expectRefusal(m.transition(m.created(), join, partner, t0), 'forbidden', 403)
      expectRefusal(m.transition(m.created(), { type: 'reject' }, partner, t0), 'forbidden', 403)
      expectRefusal(m.transition(partnerSale(), { type: 'claim', role: 'seller', userId: 'u_seller' }, partner, t0), 'forbidden', 403)
      expectRefusal(m.transition(m.created(), { type: 'update', description: 'new' }, partner, t0), 'forbidden', 403)
    })

    it("lets the code's holder take the open place before the invited party claims; the claim then joins the sale", () => {
      for (const invited of ['seller', 'buyer'] as const) {
        const open = invited === 'seller' ? 'buyerId' : 'sellerId'
        const taken = accept(m.transition(partnerSale(invited), join, counterparty, at(60)))
        // Still waiting for the invited party; the code is spent, kept only for the joiner's replay.
        expect(taken.next).toMatchObject({ status: 'created', [open]: 'u_joiner', joinCode: null, joinedWithCode: 'ABCDEFGH' })
        expect(taken.effects).toEqual([])
        expectRefusal(m.transition(taken.next, { type: 'join', userId: 'u_other' }, counterparty, at(61)), 'already_joined', 409)
        expectRefusal(m.transition(taken.next, { type: 'reject' }, counterparty, at(61)), 'already_joined', 409)
        expectRefusal(
          m.transition(taken.next, { type: 'claim', role: invited, userId: 'u_joiner' }, counterparty, at(61)),
          'cannot_join_own_transaction',
          403,
        )
        const claimed = accept(m.transition(taken.next, { type: 'claim', role: invited, userId: 'u_invited' }, counterparty, at(120)))
        expect(claimed.next).toMatchObject({ status: 'joined', [open]: 'u_joiner', [`${invited}Id`]: 'u_invited' })
        expect(claimed.next.timestamps.joined).toEqual(at(120))
        expect(claimed.effects).toEqual([{ type: 'notify', template: 'joined', to: invited === 'seller' ? 'buyer' : 'seller' }])
      }
    })

    it('keeps the offer as it was once a party is in: the invited creator cannot change it after the join', () => {
      const taken = accept(m.transition(partnerSale('seller'), join, counterparty, at(60))).next
      const claimed = { ...taken, sellerId: 'u_seller' }
      expectRefusal(m.transition(claimed, { type: 'update', description: 'new' }, seller, at(61)), 'already_joined', 409)
    })
  })

  describe("the provider's news of a failed payment (both kinds)", () => {
    it('clears the processing flag when that payment fails, and tells the buyer', () => {
      const processing = m.processing()
      const failed: CommonEvent = { type: 'payment_failed', paymentIntentId: m.paymentIntentId }
      const { next, effects } = accept(m.transition(processing, failed, system, at(200)))
      expect(next).toMatchObject({ status: 'joined', isPaymentInProgress: false, paymentIntentId: m.paymentIntentId })
      expect(effects).toEqual([{ type: 'notify', template: 'payment_failed', to: 'buyer' }])
      // News of another payment, of one not processing, or after it was held, changes nothing.
      expectNoop(processing, m.transition(processing, { type: 'payment_failed', paymentIntentId: 'pi_other' }, system, t0))
      for (const state of [m.opened(), m.held()]) expectNoop(state, m.transition(state, failed, system, t0))
      expectRefusal(m.transition(processing, failed, buyer, t0), 'forbidden', 403)
    })
  })

  describe('the complaint window (both kinds)', () => {
    const complain: CommonEvent = { type: 'complain', description: 'broken' }
    it('moves to complained on a buyer complaint inside the window, stopping the auto-release', () => {
      const { next, effects } = accept(
        m.transition(m.inWindow(), { type: 'complain', description: ' broken frame ' }, buyer, at(3 * day - 1)),
      )
      // The case opens with the default reason and the seller's response window (3 days by default).
      const responseDeadline = at(6 * day - 1)
      expect(next).toMatchObject({
        status: 'complained',
        complaint: { description: 'broken frame', reason: 'other', responseDeadline, escalatedAt: null, offers: [] },
      })
      expect(next.timestamps.complained).toEqual(at(3 * day - 1))
      expect(effects).toEqual([
        { type: 'cancel_timer', timer: 'complaint_window' },
        { type: 'schedule', timer: 'case_response', at: responseDeadline },
        { type: 'notify', template: 'complained', to: 'seller' },
      ])
    })
    it('refuses complaints: by others, outside the window, late, twice, empty', () => {
      expectRefusal(m.transition(m.inWindow(), complain, seller, at(2 * day)), 'not_buyer', 403)
      expectRefusal(m.transition(m.inWindow(), complain, admin, at(2 * day)), 'not_buyer', 403)
      for (const state of m.beforeWindow()) expectRefusal(m.transition(state, complain, buyer, at(2 * day)), 'unconfirmed_delivery', 409)
      expectRefusal(m.transition(m.complained(), complain, buyer, at(2 * day)), 'already_complained', 409)
      expectRefusal(m.transition(m.fundsReleased(), complain, buyer, at(2 * day)), 'funds_already_released', 409)
      for (const state of m.cancelledStates()) expectRefusal(m.transition(state, complain, buyer, at(2 * day)), 'already_cancelled', 409)
      expectRefusal(m.transition(m.inWindow(), complain, buyer, at(3 * day)), 'complaint_period_expired', 409)
      expectRefusal(m.transition(m.inWindow(), { type: 'complain', description: ' ' }, buyer, at(3 * day)), 'complaint_period_expired', 409)
      expectRefusal(
        m.transition(m.inWindow(), { type: 'complain', description: '  ' }, buyer, at(2 * day)),
        'empty_complaint_description',
        400,
      )
    })
    it('releases the funds to the seller when the buyer ends the complaint period', () => {
      const { next, effects } = accept(m.transition(m.inWindow(), { type: 'end_complaint_period' }, buyer, at(2 * day + 60)))
      expect(next).toMatchObject({ status: 'funds_released', amountReleased: m.released, amountRefunded: 0 })
      expect(next.timestamps.complaint_period_ended).toEqual(at(2 * day + 60))
      expect(next.timestamps.funds_released).toEqual(at(2 * day + 60))
      expect(escrowBalance(next as unknown as TransactionState)).toBe(0)
      expect(effects).toEqual([{ type: 'cancel_timer', timer: 'complaint_window' }, ...releaseEffects])
    })
    it('refuses ending the period: by others, outside the window', () => {
      const end: CommonEvent = { type: 'end_complaint_period' }
      expectRefusal(m.transition(m.inWindow(), end, seller, t0), 'not_buyer', 403)
      expectRefusal(m.transition(m.inWindow(), end, admin, t0), 'not_buyer', 403)
      for (const state of m.beforeWindow()) expectRefusal(m.transition(state, end, buyer, t0), 'unconfirmed_delivery', 409)
      expectRefusal(m.transition(m.complained(), end, buyer, t0), 'already_complained', 409)
      expectRefusal(m.transition(m.fundsReleased(), end, buyer, t0), 'funds_already_released', 409)
      for (const state of m.cancelledStates()) expectRefusal(m.transition(state, end, buyer, t0), 'already_cancelled', 409)
    })
    it('releases the funds when the window passes', () => {
      const { next, effects } = accept(m.transition(m.inWindow(), { type: 'complaint_window_elapsed' }, system, at(3 * day)))
      expect(next).toMatchObject({ status: 'funds_released', amountReleased: m.released })
      expect(next.timestamps.complaint_period_ended).toEqual(at(3 * day))
      expect(next.timestamps.funds_released).toEqual(at(3 * day))
      expect(effects).toEqual(releaseEffects)
    })
    it('puts the window timer back when it fires early', () => {
      const state = m.inWindow()
      expectNoop(state, m.transition(state, { type: 'complaint_window_elapsed' }, system, at(3 * day - 1)), [
        { type: 'schedule', timer: 'complaint_window', at: at(3 * day) },
      ])
    })
    it('lets a complaint that committed first win over the window timer, and takes the timer from the system alone', () => {
      for (const state of [m.complained(), m.fundsReleased(), ...m.beforeWindow(), ...m.cancelledStates()]) {
        expectNoop(state, m.transition(state, { type: 'complaint_window_elapsed' }, system, at(3 * day)))
      }
      for (const actor of [buyer, admin])
        expectRefusal(m.transition(m.inWindow(), { type: 'complaint_window_elapsed' }, actor, at(3 * day)), 'forbidden', 403)
    })
    it('refuses accepting a complaint by others or without one', () => {
      for (const actor of [buyer, admin])
        expectRefusal(m.transition(m.complained(), { type: 'accept_complaint' }, actor, t0), 'not_seller', 403)
      for (const state of [m.inWindow(), ...m.beforeWindow()])
        expectRefusal(m.transition(state, { type: 'accept_complaint' }, seller, t0), 'not_complained', 409)
      expectRefusal(m.transition(m.fundsReleased(), { type: 'accept_complaint' }, seller, t0), 'funds_already_released', 409)
      for (const state of m.cancelledStates())
        expectRefusal(m.transition(state, { type: 'accept_complaint' }, seller, t0), 'already_cancelled', 409)
    })
    it('refunds everything the buyer paid, fees included, when the seller accepts the complaint', () => {
      const { next, effects } = accept(m.transition(m.complained(), { type: 'accept_complaint' }, seller, at(3 * day)))
      expect(next).toMatchObject({ status: 'payment_refunded', amountRefunded: m.heldInWindow, amountReleased: 0 })
      expect(next.timestamps.payment_refunded).toEqual(at(3 * day))
      expect(escrowBalance(next as unknown as TransactionState)).toBe(0)
      expect(effects).toEqual([
        refundEntry(m.heldInWindow, m.heldInWindow),
        ...m.refundsInWindow.map(([idempotencyAction, amount, paymentIntentId]): Effect => {
          return { type: 'provider', action: 'refund', amount, currency: 'eur', idempotencyAction, paymentIntentId }
        }),
        { type: 'notify', template: 'payment_refunded', to: 'buyer' },
        { type: 'notify', template: 'payment_refunded', to: 'seller' },
      ])
    })
  })

  describe('admin settlement (both kinds)', () => {
    for (const { name, build, held, payout, refunds } of m.settleable) {
      it(`releases ${name} to the seller or refunds the buyer, all of it`, () => {
        const from = build()
        const stopsWindow = from.status === m.inWindow().status
        const toSeller = accept(m.transition(from, { type: 'release_funds', to: 'seller' }, admin, at(5 * day)))
        expect(toSeller.next).toMatchObject({ status: 'funds_released', amountReleased: payout, amountRefunded: 0 })
        expect(toSeller.next.timestamps.complaint_period_ended).toBeNull()
        expect(escrowBalance(toSeller.next as unknown as TransactionState)).toBe(0)
        expect(ledger(toSeller.effects)).toEqual([releaseEntry(held, payout, held - payout)])
        expect(toSeller.effects.filter((effect) => effect.type === 'provider')).toEqual([
          {
            type: 'provider',
            action: 'transfer',
            amount: payout,
            currency: 'eur',
            idempotencyAction: 'transfer',
            paymentIntentId: m.paymentIntentId,
          },
        ])
        expect(toSeller.effects.some((e) => e.type === 'cancel_timer')).toBe(stopsWindow)

        const toBuyer = accept(m.transition(from, { type: 'release_funds', to: 'buyer' }, admin, at(5 * day)))
        expect(toBuyer.next).toMatchObject({ status: 'payment_refunded', amountRefunded: held, amountReleased: 0 })
        expect(escrowBalance(toBuyer.next as unknown as TransactionState)).toBe(0)
        expect(ledger(toBuyer.effects)).toEqual([refundEntry(held, held)])
        const providerRefunds = toBuyer.effects.flatMap((e) =>
          e.type === 'provider' ? [[e.idempotencyAction, e.amount, e.paymentIntentId]] : [],
        )
        expect(providerRefunds).toEqual(refunds)
        expect(toBuyer.effects.some((e) => e.type === 'cancel_timer')).toBe(stopsWindow)
      })
    }
  })

  describe('admin settlement refused (both kinds)', () => {
    const release = (to: Party): CommonEvent => ({ type: 'release_funds', to })
    it('refuses release_funds: by others, once released or called off, once the period has ended, to nobody', () => {
      for (const actor of [buyer, seller, system, counterparty]) {
        expectRefusal(m.transition(m.complained(), release('seller'), actor, t0), 'not_admin', 403)
      }
      expectRefusal(m.transition(m.fundsReleased(), release('seller'), admin, t0), 'funds_already_released', 409)
      for (const state of m.cancelledStates()) {
        for (const to of ['buyer', 'seller'] as const) expectRefusal(m.transition(state, release(to), admin, t0), 'already_cancelled', 409)
      }
      // complaint_period_ended passes straight on to funds_released; a row caught in between still answers precisely.
      const ending = { ...m.inWindow(), status: 'complaint_period_ended' } as S
      expectRefusal(m.transition(ending, release('seller'), admin, t0), 'complaint_period_expired', 409)
      expectRefusal(m.transition(m.complained(), release('nobody' as Party), admin, t0), 'validation_failed', 400)
    })
  })

  describe('list filters (both kinds)', () => {
    for (const [name, build, next] of m.underWay) {
      it(`files ${name}`, () => {
        const state = build() as unknown as TransactionState
        expect(whoMustAct(state)).toBe(next)
        for (const party of ['buyer', 'seller'] as const) {
          expect(matchesFilter(state, party, 'active')).toBe(true)
          expect(matchesFilter(state, party, 'inputRequired')).toBe(next === party)
          expect(matchesFilter(state, party, 'waiting')).toBe(next !== party)
          expect(matchesFilter(state, party, 'completed')).toBe(false)
          expect(matchesFilter(state, party, 'cancelled')).toBe(false)
        }
      })
    }
    it('files finished transactions as completed or cancelled only, nobody to move but the provider refunding', () => {
      const filedOnlyAs = (state: TransactionState, only: TransactionFilter) => {
        for (const role of ['buyer', 'seller'] as const) {
          for (const filter of ['active', 'inputRequired', 'waiting', 'completed', 'cancelled'] as const) {
            expect(matchesFilter(state, role, filter), `${state.status} ${role} ${filter}`).toBe(filter === only)
          }
        }
      }
      const released = m.fundsReleased() as unknown as TransactionState
      expect(whoMustAct(released)).toBeNull()
      filedOnlyAs(released, 'completed')
      for (const state of m.cancelledStates() as unknown as TransactionState[]) {
        expect(whoMustAct(state)).toBe(state.status === m.refundingStatus ? 'system' : null)
        filedOnlyAs(state, 'cancelled')
      }
    })
  })
}

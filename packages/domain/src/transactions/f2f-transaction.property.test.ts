import fc from 'fast-check'
import { hasOpenFraudWarning } from './chargeback.ts'
import { describe, expect, it } from 'vitest'
import { escrowBalances, type LedgerEntry, ledgerBreaches, resolvesHold } from '../ledger-rules.ts'
import { availableActions, type F2fAction, f2fActions, type TransactionAction } from './available-actions.ts'
import { type F2fEvent, transitionF2f as transition } from './f2f-transaction.ts'
import { boughtFromListing } from './listing-sale.ts'
import { disputed } from './f2f-rules.ts'
import { createF2fTransaction, depositAmount, type F2fState, f2fStatuses, isInComplaintWindow, remainderAmount } from './f2f-state.ts'
import type { Actor, Party } from './kernel.ts'
import {
  actor,
  reprice,
  waits,
  windowEvents,
  wellFormedWindowEvents,
  wellFormedCaseEvents,
  wellFormedChargebackEvents,
  liftDisputeHolds,
  returnedByTheBank,
  ledgerEntries,
  replay,
  sentBack,
  type CommonCommand,
  commonStep,
  type StepRules,
  expectLedgerAgrees,
  progress,
  walk,
} from './testing/random-histories.ts'
import { f2fOffer } from './testing/offers.ts'
import { escrowBalance, isTerminal as isTerminalState } from './transaction.ts'

const isTerminal = (status: F2fState['status']) => isTerminalState({ kind: 'f2f', status })

/**
 * Random histories of a face-to-face sale: random events from random actors at
 * random times. Each command describes an event relative to the state it
 * meets (e.g. "pay what is due"), so that the machine gets deep into the table
 * often enough.
 */
type Command =
  | CommonCommand<F2fEvent>
  | { kind: 'pay'; part: 'deposit' | 'remainder'; opened: boolean; intent: string; exact: boolean }
  | { kind: 'price'; above: number; charge: number; chargeSeller: number }

const text = fc.constantFrom('', '  ', 'broken', 'changed my mind')
// pi_1, pi_2 are meant for the deposit and pi_3, pi_4 for the remainder, but random events mix them.
const intent = fc.constantFrom('pi_1', 'pi_2', 'pi_3', 'pi_4')
const part = fc.constantFrom<'deposit' | 'remainder'>('deposit', 'remainder')

const plainEvent: fc.Arbitrary<F2fEvent> = fc.oneof(
  fc.constantFrom('u_joiner', '', 'u_creator').map((userId) => ({ type: 'join', userId }) as const),
  fc.constant({ type: 'reject' } as const),
  fc.constant({ type: 'accept_listing' } as const),
  fc.constant({ type: 'reject_listing' } as const),
  text.map((description) => ({ type: 'cancel', description }) as const),
  fc.record({ part, paymentIntentId: intent }).map((p) => ({ type: 'payment_intent_opened', ...p }) as const),
  intent.map((paymentIntentId) => ({ type: 'payment_started', paymentIntentId }) as const),
  intent.map((paymentIntentId) => ({ type: 'payment_failed', paymentIntentId }) as const),
  fc.constant({ type: 'refund_succeeded' } as const),
  fc.constant({ type: 'accept_deposit' } as const),
  fc.constant({ type: 'skip_remainder' } as const),
  fc.constant({ type: 'confirm_handover' } as const),
  ...windowEvents(text),
)

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 12, arbitrary: progress(true) },
  { weight: 2, arbitrary: progress(false) },
  { weight: 3, arbitrary: plainEvent.map((event) => ({ kind: 'plain', event }) as const) },
  {
    weight: 1,
    arbitrary: fc.record({ part, opened: fc.boolean(), intent, exact: fc.boolean() }).map((p) => ({ kind: 'pay', ...p }) as const),
  },
  { weight: 1, arbitrary: reprice([0, 90, 190, -1]) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        above: fc.constantFrom(-1, 0, 99, 100, 15_000, 600_000),
        charge: fc.constantFrom(0, 43, 490, -1),
        chargeSeller: fc.constantFrom(0, 0, 150),
      })
      .map((p) => ({ kind: 'price', ...p }) as const),
  },
)

// Mostly short steps, sometimes one beyond the complaint window.
const timeStep = waits(200_000)

const history = fc.record({
  creatorRole: fc.constantFrom<Party>('buyer', 'seller'),
  /** Bought from a listing (the buyer creates it, the seller has to accept) rather than offered by join code. */
  fromListing: fc.boolean(),
  sellerConfirmsHandover: fc.boolean(),
  depositPrice: fc.integer({ min: 100, max: 1_000_000 }),
  depositCharge: fc.constantFrom(0, 43, 190),
  chargeSeller: fc.constantFrom(0, 0, 50),
  steps: fc.array(fc.record({ command, actor, wait: timeStep }), { maxLength: 40, size: 'max' }),
})
type History = typeof history extends fc.Arbitrary<infer H> ? H : never

const start = new Date('2026-03-01T00:00:00Z')

function createdFrom(h: History): F2fState {
  const created = createF2fTransaction(
    f2fOffer({
      creatorRole: h.fromListing ? 'buyer' : h.creatorRole,
      depositPrice: h.depositPrice,
      depositCharge: h.depositCharge,
      depositChargeSeller: h.chargeSeller,
      sellerConfirmsHandover: h.sellerConfirmsHandover,
    }),
    start,
  )
  return h.fromListing ? boughtFromListing(created, 'u_listing_seller') : created
}

function wellFormedEvents(state: F2fState): F2fEvent[] {
  const depositIntent = state.paymentIntentId ?? 'pi_1'
  const remainderIntent = state.remainderPaymentIntentId ?? 'pi_3'
  return [
    { type: 'join', userId: 'u_joiner' },
    { type: 'reject' },
    { type: 'accept_listing' },
    { type: 'reject_listing' },
    { type: 'cancel', description: 'changed my mind' },
    { type: 'set_payment_method', paymentMethod: 'sepa', charge: 90, chargeCalculatorVersion: 1 },
    { type: 'payment_intent_opened', part: 'deposit', paymentIntentId: 'pi_1' },
    { type: 'payment_intent_opened', part: 'remainder', paymentIntentId: 'pi_3' },
    { type: 'payment_started', paymentIntentId: depositIntent },
    { type: 'payment_started', paymentIntentId: remainderIntent },
    { type: 'payment_succeeded', paymentIntentId: depositIntent, amount: depositAmount(state) },
    { type: 'payment_succeeded', paymentIntentId: remainderIntent, amount: remainderAmount(state) },
    { type: 'payment_failed', paymentIntentId: depositIntent },
    { type: 'payment_failed', paymentIntentId: remainderIntent },
    { type: 'refund_succeeded' },
    { type: 'accept_deposit' },
    { type: 'set_price', price: state.price + 15_000, charge: 490, chargeSeller: 0, chargeCalculatorVersion: 1 },
    { type: 'skip_remainder' },
    { type: 'confirm_handover' },
    ...wellFormedWindowEvents,
    ...wellFormedCaseEvents(state, disputed(state).price),
    ...wellFormedChargebackEvents(state),
  ]
}

const abandoned: readonly string[] = ['cancelled', 'rejected', 'cancelled_with_deposit']

const stepRules: StepRules<F2fState, F2fEvent> = {
  transition,
  wellFormedEvents,
  // Forward steps leave out calling the sale off and an admin cutting it short.
  abandons: (next, actor) => abandoned.includes(next.status) || actor.kind === 'admin',
  stuck: { type: 'cancel', description: 'stuck' },
}

function toStep(cmd: Command, who: Actor, state: F2fState, now: Date): [F2fEvent, Actor] {
  switch (cmd.kind) {
    case 'pay': {
      const opened = cmd.part === 'deposit' ? state.paymentIntentId : state.remainderPaymentIntentId
      const due = cmd.part === 'deposit' ? depositAmount(state) : remainderAmount(state)
      return [
        { type: 'payment_succeeded', paymentIntentId: (cmd.opened ? opened : null) ?? cmd.intent, amount: due + (cmd.exact ? 0 : 1) },
        who,
      ]
    }
    case 'price':
      return [
        {
          type: 'set_price',
          price: state.price + cmd.above,
          charge: cmd.charge,
          chargeSeller: cmd.chargeSeller,
          chargeCalculatorVersion: 1,
        },
        who,
      ]
    default:
      return commonStep(cmd, who, state, now, stepRules)
  }
}

const f2f = { transition, toStep, statuses: f2fStatuses, isTerminal, isInComplaintWindow }

/** Replays a history, returning the final state, the clock and the ledger entries written. */
function replayed(h: History): { state: F2fState; now: Date; entries: LedgerEntry[] } {
  return replay(f2f, { state: createdFrom(h), now: start }, h.steps)
}

/** A well-formed way to take an offered action (other inputs than the samples availableActions tries). */
function takeAction(action: F2fAction, state: F2fState): F2fEvent[] {
  switch (action) {
    case 'join':
      return [{ type: 'join', userId: 'u_joiner' }]
    case 'reject':
      return [{ type: 'reject' }]
    case 'accept_listing_transaction':
      return [{ type: 'accept_listing' }]
    case 'reject_listing_transaction':
      return [{ type: 'reject_listing' }]
    case 'update':
      return [{ type: 'update', description: 'a blue lamp' }]
    case 'cancel_with_description':
      return [{ type: 'cancel', description: 'changed my mind' }]
    case 'set_deposit_payment_method':
      return [{ type: 'set_payment_method', paymentMethod: 'sepa', charge: 90, chargeCalculatorVersion: 1 }]
    case 'pay_deposit':
      return [{ type: 'payment_intent_opened', part: 'deposit', paymentIntentId: 'pi_fresh' }]
    case 'pay_remainder':
      return [{ type: 'payment_intent_opened', part: 'remainder', paymentIntentId: 'pi_fresh' }]
    case 'set_price':
      return [{ type: 'set_price', price: state.price + 15_000, charge: 490, chargeSeller: 0, chargeCalculatorVersion: 1 }]
    case 'complain':
      return [{ type: 'complain', description: 'it broke' }]
    case 'release_funds':
      return [
        { type: 'release_funds', to: 'seller' },
        { type: 'release_funds', to: 'buyer' },
      ]
    case 'propose_settlement':
    case 'accept_settlement':
    case 'decline_settlement':
    case 'decide':
      return wellFormedCaseEvents(state, disputed(state).price).filter((event) => event.type === action)
    case 'escalate_case':
    case 'accept_deposit':
    case 'skip_remainder':
    case 'confirm_handover':
    case 'end_complaint_period':
    case 'accept_complaint':
      return [{ type: action }]
  }
}

const disputeEntries: readonly string[] = [
  'dispute_opened',
  'dispute_won',
  'chargeback_refund',
  'chargeback_loss',
  'dispute_fee',
  'chargeback_recovery',
]

describe('face-to-face transaction over random histories', () => {
  it('keeps every invariant of the state machine and the ledger', () => {
    // Which states the histories stamped, for each value of sellerConfirmsHandover:
    // a generator that never gets past `joined` would make every invariant below vacuous.
    const stamped = { true: new Set<string>(), false: new Set<string>() }
    fc.assert(
      fc.property(history, (h) => {
        let state = createdFrom(h)
        const movements: string[] = []
        for (const { event, next, effects, newEntries, entries } of walk(f2f, { state, now: start, fromListing: h.fromListing }, h.steps)) {
          // Money only ever flows out of the buyer's funding and escrow, into the seller, revenue or the buyer's refund.
          // A card dispute's entries (chargeback.ts) move the platform's own money beside them.
          for (const posting of newEntries.filter((entry) => !disputeEntries.includes(entry.entry)).flatMap((entry) => entry.postings)) {
            if (posting.account !== 'escrow' && posting.account !== 'buyer_funding') expect(posting.amount).toBeGreaterThanOrEqual(0)
          }
          // Each provider movement (`transfer`, `refund:deposit`, …) is asked for once;
          // money never held goes straight back, keyed by its payment.
          for (const effect of effects) {
            if (effect.type === 'provider' && !effect.idempotencyAction.startsWith('refund-unheld:')) {
              expect(effect.amount).toBeGreaterThan(0)
              movements.push(effect.idempotencyAction)
            }
            if (effect.type === 'provider' && effect.idempotencyAction.startsWith('refund-unheld:')) {
              // Exactly what arrived goes back, to the payment it came from.
              expect(event).toMatchObject({ type: 'payment_succeeded', paymentIntentId: effect.paymentIntentId, amount: effect.amount })
              expect(effect.idempotencyAction).toBe(`refund-unheld:${effect.paymentIntentId}`)
            }
          }
          state = next

          // Held at most once per part, resolved at most once, escrow never negative.
          for (const heldPart of ['deposit', 'remainder'] as const) {
            expect(entries.filter((e) => e.entry === 'hold' && e.part === heldPart).length).toBeLessThanOrEqual(1)
          }
          expect(entries.filter((e) => e.entry === 'hold' && e.part !== 'deposit' && e.part !== 'remainder')).toEqual([])
          expect(entries.filter((e) => resolvesHold(e.entry)).length).toBeLessThanOrEqual(1)
          expect(new Set(movements).size).toBe(movements.length)
          const terminal = isTerminal(state.status)
          expectLedgerAgrees(entries, state, { terminal, emptied: terminal || state.status === 'cancelled_with_deposit' })
          const paidDeposit = state.timestamps.deposit_paid !== null ? depositAmount(state) : 0
          const paidRemainder = state.timestamps.remainder_paid !== null ? remainderAmount(state) : 0
          expect(state.amountHeld).toBe(paidDeposit + paidRemainder)
          // What the state says was paid out and refunded is what the ledger moved there.
          const postedTo = (account: string) =>
            entries.flatMap((e) => e.postings).reduce((sum, p) => sum + (p.account === account ? p.amount : 0), 0)
          // Recovered after a lost dispute: taken back from the seller, still counted as released.
          expect(postedTo('seller') + (state.chargeback?.recovered ?? 0)).toBe(state.amountReleased)
          expect(postedTo('buyer_refund')).toBe(state.amountRefunded)
          expect(state.amountReleased).toBeLessThanOrEqual(state.amountHeld)
          expect(state.amountRefunded - sentBack(entries) - returnedByTheBank(entries)).toBeLessThanOrEqual(state.amountHeld)
        }
        for (const status of f2fStatuses) if (state.timestamps[status] !== null) stamped[`${h.sellerConfirmsHandover}`].add(status)
      }),
      { numRuns: 1_200 },
    )
    // Every state is reached, with and without the seller's handover step
    // (buyer_handover_confirmed means a different thing in each).
    const union = new Set([...stamped.true, ...stamped.false])
    expect([...union].sort()).toEqual([...f2fStatuses].sort())
    for (const status of [
      'buyer_handover_confirmed',
      'seller_handover_confirmed',
      'complained',
      'funds_released',
      'complaint_period_ended',
    ]) {
      expect(stamped.true.has(status), `${status} with a seller step`).toBe(true)
    }
    for (const status of [
      'buyer_handover_confirmed',
      'complained',
      'funds_released',
      'complaint_period_ended',
      'deposit_refunded',
      'payment_refunded',
    ]) {
      expect(stamped.false.has(status), `${status} without a seller step`).toBe(true)
    }
    // Without the seller's step the seller can never confirm.
    expect(stamped.false.has('seller_handover_confirmed')).toBe(false)
  })

  it('offers nothing once over, join or reject only to the counterparty, only the cancel to the partner, and every offered action is accepted', () => {
    fc.assert(
      fc.property(history, fc.constantFrom<Actor['kind']>('buyer', 'seller', 'admin', 'counterparty', 'partner'), (h, kind) => {
        const { state, now } = replayed(h)
        const who: Actor = { kind }
        const offered: TransactionAction[] = availableActions(state, who, now)
        if (isTerminal(state.status) || state.status === 'cancelled_with_deposit') expect(offered).toEqual([])
        expect(availableActions(state, { kind: 'system' }, now)).toEqual([])
        for (const action of f2fActions) {
          const events = takeAction(action, state)
          const outcomes = events.map((event) => transition(state, event, who, now))
          if (offered.includes(action)) {
            // Offered: taking it, with any well-formed input, is accepted and changes something.
            expect(['join', 'reject'].includes(action)).toBe(kind === 'counterparty')
            if (kind === 'partner') expect(action).toBe('cancel_with_description')
            for (const outcome of outcomes) {
              // Under an early fraud warning, an input that would pay the seller is held back (chargeback.ts).
              if (!outcome.ok && outcome.code === 'fraud_warning_open' && hasOpenFraudWarning(state)) continue
              expect(outcome.ok).toBe(true)
              if (outcome.ok) expect(outcome.next).not.toBe(state)
            }
          } else {
            // Not offered: no well-formed input gets through either.
            for (const outcome of outcomes) expect(!outcome.ok || outcome.next === state).toBe(true)
          }
        }
      }),
      { numRuns: 300 },
    )
  })

  it('ends every history with money held in funds_released, payment_refunded or deposit_refunded once driven home', () => {
    fc.assert(
      fc.property(history, fc.constantFrom<Party>('buyer', 'seller'), (h, to) => {
        const { state: reached, now, entries } = replayed(h)
        if (reached.amountHeld === 0) return
        let state = reached
        // A dispute's hold lifted first (won at once, the warning cleared).
        for (const [event, who] of liftDisputeHolds(state)) {
          const result = transition(state, event as F2fEvent, who, now)
          if (result.ok) {
            entries.push(...ledgerEntries(result.effects))
            state = result.next
          }
        }
        // Drive it home far in the future: a payment on its way fails, the
        // window timer fires, the provider confirms the refund, an admin settles.
        const late = new Date(now.getTime() + 30 * 86_400_000)
        const settle: [F2fEvent, Actor][] = [
          [{ type: 'payment_failed', paymentIntentId: state.remainderPaymentIntentId ?? '' }, { kind: 'system' }],
          [{ type: 'complaint_window_elapsed' }, { kind: 'system' }],
          [{ type: 'refund_succeeded' }, { kind: 'system' }],
          [{ type: 'release_funds', to }, { kind: 'admin' }],
        ]
        for (const [event, who] of settle) {
          const result = transition(state, event, who, late)
          if (result.ok) {
            entries.push(...ledgerEntries(result.effects))
            state = result.next
          }
        }
        expect(['funds_released', 'payment_refunded', 'deposit_refunded']).toContain(state.status)
        expect(isTerminal(state.status)).toBe(true)
        expect(escrowBalance(state)).toBe(0)
        expect(escrowBalances(entries).size).toBe(0)
        expect(ledgerBreaches({ entries, terminal: true })).toEqual([])
        // Every minor unit held went somewhere.
        if (state.status === 'funds_released') expect(state.amountReleased).toBeLessThanOrEqual(state.amountHeld)
        else expect(state.amountRefunded - sentBack(entries) - returnedByTheBank(entries)).toBeLessThanOrEqual(state.amountHeld)
      }),
      { numRuns: 500 },
    )
  })
})

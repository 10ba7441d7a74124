import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { resolvesHold } from '../ledger-rules.ts'
import { availableActions } from './available-actions.ts'
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
  replay,
  type CommonCommand,
  commonStep,
  type StepRules,
  expectLedgerAgrees,
  progress,
  walk,
} from './testing/random-histories.ts'
import { onlineOffer } from './testing/offers.ts'
import { type OnlineEvent, transitionOnline as transition } from './online-transaction.ts'
import { createOnlineTransaction, type OnlineState, onlineStatuses } from './online-state.ts'
import { escrowBalance, isTerminal as isTerminalState } from './transaction.ts'
import { awaitsSellerAcceptance, boughtFromListing } from './listing-sale.ts'
import { disputed } from './online-rules.ts'

const isTerminal = (status: OnlineState['status']) => isTerminalState({ kind: 'online', status })

/**
 * Random histories: random events from random actors at random times. Each
 * command describes an event relative to the state it meets (e.g. "pay the
 * right amount"), so that the machine gets deep into the table often enough.
 */
type Command = CommonCommand<OnlineEvent> | { kind: 'pay'; intent: string; exact: boolean }

const text = fc.constantFrom('', '  ', 'broken', 'late')
const intent = fc.constantFrom('pi_1', 'pi_2')

const plainEvent: fc.Arbitrary<OnlineEvent> = fc.oneof(
  fc.constant({ type: 'join', userId: 'u_joiner' } as const),
  fc.constantFrom<Party>('buyer', 'seller').map((role) => ({ type: 'claim', role, userId: 'u_joiner' }) as const),
  fc.constant({ type: 'reject' } as const),
  fc.constant({ type: 'accept_listing' } as const),
  fc.constant({ type: 'reject_listing' } as const),
  fc.constant({ type: 'cancel' } as const),
  intent.map((paymentIntentId) => ({ type: 'payment_started', paymentIntentId }) as const),
  intent.map((paymentIntentId) => ({ type: 'payment_failed', paymentIntentId }) as const),
  fc.constant({ type: 'refund_succeeded' } as const),
  fc
    .record({ carrier: fc.constantFrom('dhl', ''), trackingCode: fc.constantFrom('JD1', ' ') })
    .map((t) => ({ type: 'track', ...t }) as const),
  text.map((description) => ({ type: 'submit_order_issue', description }) as const),
  fc.constant({ type: 'carrier_in_transit', occurredAt: new Date('2026-03-01T06:00:00Z') } as const),
  fc.constant({ type: 'carrier_delivered' } as const),
  fc.constant({ type: 'confirm_delivery' } as const),
  fc.constant({ type: 'tracking_deadline_elapsed' } as const),
  ...windowEvents(text),
)

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 10, arbitrary: progress(true) },
  { weight: 2, arbitrary: progress(false) },
  { weight: 3, arbitrary: plainEvent.map((event) => ({ kind: 'plain', event }) as const) },
  { weight: 1, arbitrary: fc.record({ intent, exact: fc.boolean() }).map((p) => ({ kind: 'pay', ...p }) as const) },
  { weight: 1, arbitrary: reprice([0, 140, 340, 1_000]) },
)

// Mostly short steps, sometimes one beyond both deadlines.
const timeStep = waits(400_000)

const history = fc.record({
  creatorRole: fc.constantFrom<Party>('buyer', 'seller'),
  /** Bought from a listing (the buyer creates it, the seller has to accept) rather than offered by join code. */
  fromListing: fc.boolean(),
  price: fc.integer({ min: 100, max: 10_000_000 }),
  chargeSeller: fc.constantFrom(0, 0, 50),
  steps: fc.array(fc.record({ command, actor, wait: timeStep }), { maxLength: 50 }),
})

function wellFormedEvents(state: OnlineState): OnlineEvent[] {
  return [
    { type: 'join', userId: 'u_joiner' },
    { type: 'reject' },
    { type: 'accept_listing' },
    { type: 'reject_listing' },
    { type: 'cancel' },
    { type: 'payment_started', paymentIntentId: 'pi_1' },
    { type: 'payment_succeeded', paymentIntentId: 'pi_1', amount: state.price + state.charge },
    { type: 'payment_failed', paymentIntentId: 'pi_1' },
    { type: 'refund_succeeded' },
    { type: 'track', carrier: 'dhl', trackingCode: 'JD1' },
    { type: 'submit_order_issue', description: 'late' },
    { type: 'carrier_in_transit', occurredAt: new Date('2026-03-01T06:00:00Z') },
    { type: 'carrier_delivered' },
    { type: 'confirm_delivery' },
    { type: 'tracking_deadline_elapsed' },
    { type: 'extend_tracking_deadline', hours: 24 },
    { type: 'request_receipt_confirmation' },
    ...wellFormedWindowEvents,
    ...wellFormedCaseEvents(state, disputed(state).price),
    ...wellFormedChargebackEvents(state),
  ]
}

const abandoned: readonly string[] = ['cancelled', 'rejected', 'cancelled_with_payment']

const stepRules: StepRules<OnlineState, OnlineEvent> = {
  transition,
  wellFormedEvents,
  // Forward steps leave out calling the sale off.
  abandons: (next) => abandoned.includes(next.status),
  stuck: { type: 'cancel' },
}

function toStep(cmd: Command, who: Actor, state: OnlineState, now: Date): [OnlineEvent, Actor] {
  return cmd.kind === 'pay'
    ? [{ type: 'payment_succeeded', paymentIntentId: cmd.intent, amount: state.price + state.charge + (cmd.exact ? 0 : 1) }, who]
    : commonStep(cmd, who, state, now, stepRules)
}

function start(creatorRole: Party, fromListing: boolean, price: number, chargeSeller: number, now: Date): OnlineState {
  const role = fromListing ? 'buyer' : creatorRole
  const created = createOnlineTransaction(onlineOffer({ creatorRole: role, price, chargeSeller }), now)
  return fromListing ? boughtFromListing(created, 'u_listing_seller') : created
}

const online = {
  transition,
  toStep,
  statuses: onlineStatuses,
  isTerminal,
  isInComplaintWindow: (state: OnlineState) => state.status === 'delivered',
}

describe('online transaction over random histories', () => {
  it('keeps every invariant of the state machine and the ledger', () => {
    // Which states the histories stamped: a generator that never gets past
    // `joined` would make every invariant below vacuous.
    const stamped = new Set<string>()
    fc.assert(
      fc.property(history, ({ creatorRole, fromListing, price, chargeSeller, steps }) => {
        const begun = new Date('2026-03-01T00:00:00Z')
        let state = start(creatorRole, fromListing, price, chargeSeller, begun)
        const providerCalls: string[] = []
        for (const { next, effects, entries } of walk(online, { state, now: begun, fromListing }, steps)) {
          // The carrier's "in transit" is stamped once, while the parcel is on its way, never before tracking was added.
          if (state.inTransit !== null) expect(next.inTransit).toEqual(state.inTransit)
          else if (next.inTransit !== null) {
            expect(state.status).toBe('tracked')
            expect(next.inTransit.getTime()).toBeGreaterThanOrEqual(state.timestamps.tracked?.getTime() ?? Number.NaN)
          }
          // Money that was never held goes straight back (refund-unheld); the rest is the escrow's one movement.
          for (const effect of effects) {
            // A recovery from the seller after a lost dispute is the one call beside it.
            const beside =
              effect.type === 'provider' && (effect.idempotencyAction.startsWith('refund-unheld:') || effect.action === 'reverse_transfer')
            if (effect.type === 'provider' && !beside) providerCalls.push(effect.action)
          }
          state = next

          // Held at most once, resolved at most once, escrow never negative.
          expect(entries.filter((e) => e.entry === 'hold').length).toBeLessThanOrEqual(1)
          expect(entries.filter((e) => resolvesHold(e.entry)).length).toBeLessThanOrEqual(1)
          // A split is the one movement that takes two calls: the buyer's refund and the seller's transfer.
          expect(providerCalls.length).toBeLessThanOrEqual(entries.some((e) => e.entry === 'split') ? 2 : 1)
          const terminal = isTerminal(state.status)
          expectLedgerAgrees(entries, state, { terminal, emptied: terminal || state.status === 'cancelled_with_payment' })
          if (state.amountHeld > 0) expect(state.amountHeld).toBe(state.price + state.charge)
        }
        for (const status of onlineStatuses) if (state.timestamps[status] !== null) stamped.add(status)
      }),
      { numRuns: 5_000 },
    )
    expect([...stamped].sort()).toEqual([...onlineStatuses].sort())
  })

  it('offers nothing once over, join or reject only to the counterparty, and only the cancel to the partner', () => {
    fc.assert(
      fc.property(
        history,
        fc.constantFrom<Actor['kind']>('buyer', 'seller', 'admin', 'counterparty', 'partner'),
        ({ creatorRole, fromListing, price, steps }, kind) => {
          const begun = new Date('2026-03-01T00:00:00Z')
          const { state, now } = replay(online, { state: start(creatorRole, fromListing, price, 0, begun), now: begun }, steps)
          const offered = availableActions(state, { kind }, now)
          if (isTerminal(state.status)) expect(offered).toEqual([])
          for (const type of offered) expect(['join', 'reject'].includes(type)).toBe(kind === 'counterparty')
          if (kind === 'partner') expect(offered.filter((type) => type !== 'cancel')).toEqual([])
          // Only the seller answers a listing's buyer, and only while the sale waits for that answer.
          const answers = offered.filter((type) => type === 'accept_listing_transaction' || type === 'reject_listing_transaction')
          expect(answers).toEqual(
            kind === 'seller' && awaitsSellerAcceptance(state) ? ['accept_listing_transaction', 'reject_listing_transaction'] : [],
          )
        },
      ),
      { numRuns: 1_000 },
    )
  })

  it('reaches funds_released or payment_refunded from every paid history that is driven to the end', () => {
    fc.assert(
      fc.property(history, fc.boolean(), ({ creatorRole, fromListing, price, steps }, complain) => {
        const begun = new Date('2026-03-01T00:00:00Z')
        const replayed = replay(online, { state: start(creatorRole, fromListing, price, 0, begun), now: begun }, steps)
        const now = replayed.now
        let state = replayed.state
        if (state.amountHeld === 0) return
        // A dispute's hold lifted first (won at once, the warning cleared).
        for (const [event, who] of liftDisputeHolds(state)) {
          const result = transition(state, event as OnlineEvent, who, now)
          if (result.ok) state = result.next
        }
        // Drive it home: timers fire far in the future, an admin settles a dispute.
        const late = new Date(now.getTime() + 30 * 86_400_000)
        const settle: [OnlineEvent, Actor][] = [
          [{ type: 'tracking_deadline_elapsed' }, { kind: 'system' }],
          [{ type: 'refund_succeeded' }, { kind: 'system' }],
          [{ type: 'confirm_delivery' }, { kind: 'admin' }],
          [{ type: 'release_funds', to: complain ? 'buyer' : 'seller' }, { kind: 'admin' }],
        ]
        for (const [event, who] of settle) {
          const result = transition(state, event, who, late)
          if (result.ok) state = result.next
        }
        expect(['funds_released', 'payment_refunded']).toContain(state.status)
        expect(escrowBalance(state)).toBe(0)
      }),
      { numRuns: 1_000 },
    )
  })
})

import fc from 'fast-check'
import { expect } from 'vitest'
import { entrySumsToZero, escrowBalances, ledgerBreaches, type LedgerEntry } from '../../ledger-rules.ts'
import type { PaymentMethod } from '../../currencies.ts'
import { type Actor, type CommonState, type Effect, type HoldPart, type Party, refusalStatus, type Result, type Step } from '../kernel.ts'
import { type ChargebackStatus, isChargebackOpen } from '../chargeback.ts'
import { openOffer } from '../dispute-case.ts'
import { awaitsSellerAcceptance } from '../listing-sale.ts'
import type { CommonEvent } from '../shared-handlers.ts'
import { escrowBalance, type TransactionState } from '../transaction.ts'

/**
 * What the property tests of both kinds (`*-transaction.property.test.ts`)
 * share: the actors that try every event, replaying a random history, the
 * invariants every step keeps whatever the kind, and reading the ledger.
 */

// Any actor may try any event: the role checks are under test too.
export const actor: fc.Arbitrary<Actor> = fc
  .constantFrom<Actor['kind']>('buyer', 'seller', 'admin', 'system', 'counterparty', 'partner')
  .map((kind) => ({ kind }))

/** The commands a history of either kind is made of, besides the kind's own payments (and pricing). */
export type CommonCommand<E> =
  | { kind: 'plain'; event: E }
  | { kind: 'reprice'; method: PaymentMethod; charge: number }
  /**
   * Any step the machine accepts from here (`forward`: one that does not
   * cancel, reject or need an admin), so that histories get deep into the table.
   */
  | { kind: 'progress'; pick: number; forward: boolean }

/** Any step the machine accepts (`CommonCommand`), picked at random. */
export function progress(forward: boolean) {
  return fc.nat().map((pick) => ({ kind: 'progress', pick, forward }) as const)
}

/** Mostly short waits, sometimes one of up to `longest` seconds, beyond a deadline. */
export function waits(longest: number): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 0, max: 3_600 }) },
    { weight: 1, arbitrary: fc.integer({ min: 3_600, max: longest }) },
  )
}

/** The buyer changes the payment method, repriced with one of `charges` (some of them wrong). */
export function reprice(charges: readonly number[]) {
  return fc
    .record({ method: fc.constantFrom<PaymentMethod>('card', 'p24', 'sepa'), charge: fc.constantFrom(...charges) })
    .map((p) => ({ kind: 'reprice', ...p }) as const)
}

/** The complaint window's events and the admin's decision, taken alike by both kinds; `text` describes the complaint. */
export function windowEvents(text: fc.Arbitrary<string>): fc.Arbitrary<CommonEvent>[] {
  return [
    text.map((description) => ({ type: 'complain', description }) as const),
    fc.constant({ type: 'end_complaint_period' } as const),
    fc.constant({ type: 'complaint_window_elapsed' } as const),
    fc.constant({ type: 'accept_complaint' } as const),
    fc.constantFrom<Party>('buyer', 'seller').map((to) => ({ type: 'release_funds', to }) as const),
    // A case's steps with ids and amounts that are mostly wrong: the refusals are under test too.
    fc
      .record({ refundToBuyer: fc.integer({ min: -1, max: 20_000 }), releaseToSeller: fc.integer({ min: 0, max: 20_000 }) })
      .map((split) => ({ type: 'propose_settlement', offerId: 'o_random', note: '', ...split }) as const),
    fc.constant({ type: 'accept_settlement', offerId: 'o_random' } as const),
    fc.constant({ type: 'decline_settlement', offerId: 'o_random' } as const),
    fc.constant({ type: 'escalate_case' } as const),
    fc.constant({ type: 'case_response_elapsed' } as const),
  ]
}

/**
 * A case's steps, well-formed for `state` whose price in dispute is `price`:
 * offers of a split, everything and nothing, answers to the open offer, the
 * escalation and its timer, and an admin's split.
 */
export function wellFormedCaseEvents(state: CommonState<string>, price: number): CommonEvent[] {
  const fresh = `o_${state.complaint?.offers.length ?? 0}`
  const open = openOffer(state.complaint)?.id ?? 'o_none'
  const third = Math.floor(price / 3)
  return [
    { type: 'propose_settlement', offerId: fresh, refundToBuyer: third, releaseToSeller: price - third, note: 'a third back' },
    { type: 'propose_settlement', offerId: fresh, refundToBuyer: price, releaseToSeller: 0, note: '' },
    { type: 'propose_settlement', offerId: fresh, refundToBuyer: 0, releaseToSeller: price, note: '' },
    { type: 'accept_settlement', offerId: open },
    { type: 'decline_settlement', offerId: open },
    { type: 'escalate_case' },
    { type: 'case_response_elapsed' },
    { type: 'decide', refundToBuyer: price - third, releaseToSeller: third },
  ]
}

/**
 * A card dispute's news on the sale's payment at each of its steps, an early
 * fraud warning and the admin's steps on both (chargeback.ts).
 */
export function wellFormedChargebackEvents(state: CommonState<string>): CommonEvent[] {
  const news = (status: ChargebackStatus, fee: number | null) => ({
    type: 'dispute_changed' as const,
    dispute: {
      id: 'du_1',
      paymentIntentId: state.paymentIntentId ?? 'pi_1',
      status,
      amount: Math.max(state.amountHeld, 1),
      reason: 'fraudulent',
      evidenceDueBy: new Date('2026-04-01T00:00:00Z'),
      fee: fee === null ? null : { amount: fee, currency: 'eur' },
    },
  })
  return [
    news('needs_response', 1_500),
    news('under_review', 1_500),
    news('won', 0),
    news('lost', 1_500),
    { type: 'chargeback_evidence_submitted' },
    { type: 'chargeback_accepted' },
    { type: 'early_fraud_warning', warning: { id: 'issfr_1', paymentIntentId: state.paymentIntentId ?? 'pi_1', fraudType: 'stolen_card' } },
    { type: 'clear_fraud_warning' },
    { type: 'recover_chargeback', amount: 1 },
  ]
}

/** What lifts a dispute's hold before a history is driven home: the open dispute won, the fraud warning cleared. */
export function liftDisputeHolds(state: CommonState<string>): [CommonEvent, Actor][] {
  const chargeback = state.chargeback
  const won: [CommonEvent, Actor][] = isChargebackOpen(chargeback)
    ? [[{ type: 'dispute_changed', dispute: { ...chargeback, status: 'won', fee: chargeback.fee } }, { kind: 'system' }]]
    : []
  return [...won, [{ type: 'clear_fraud_warning' }, { kind: 'admin' }]]
}

/** Card-dispute news is no step forward: a forward history leaves it out (chargeback.ts). */
export function isChargebackEvent(type: string): boolean {
  return [
    'dispute_changed',
    'chargeback_evidence_submitted',
    'chargeback_accepted',
    'early_fraud_warning',
    'clear_fraud_warning',
    'recover_chargeback',
  ].includes(type)
}

/** What a lost card dispute on money no longer held gave the buyer back, beside what Pactum refunded. */
export function returnedByTheBank(entries: readonly LedgerEntry[]): number {
  return refundedBy(entries, 'chargeback_loss')
}

/** `windowEvents`, each once and well-formed. */
export const wellFormedWindowEvents: readonly CommonEvent[] = [
  { type: 'complain', description: 'broken' },
  { type: 'end_complaint_period' },
  { type: 'complaint_window_elapsed' },
  { type: 'accept_complaint' },
  { type: 'release_funds', to: 'seller' },
  { type: 'release_funds', to: 'buyer' },
]

export const everyActor: Actor[] = (['buyer', 'seller', 'admin', 'system', 'counterparty', 'partner'] as const).map((kind) => ({ kind }))

export type Entry = LedgerEntry & { part?: HoldPart }

export function ledgerEntries(effects: readonly Effect[]): Entry[] {
  return effects.flatMap((effect) =>
    effect.type === 'ledger' ? [{ entry: effect.entry, part: effect.part, postings: effect.postings }] : [],
  )
}

/** How a kind's history moves on, for `commonStep`. */
export interface StepRules<S, E> {
  readonly transition: (state: S, event: E, actor: Actor, now: Date) => Result<S>
  /** Well-formed events to try from `state` (other inputs than the samples availableActions tries). */
  readonly wellFormedEvents: (state: S) => E[]
  /** A step a forward history leaves out: calling the sale off, say. */
  readonly abandons: (next: S, actor: Actor) => boolean
  /** What to try when nothing moves the sale on. */
  readonly stuck: E
}

/**
 * The step a `CommonCommand` takes from `state`: a plain event as it is, a
 * repricing, or any step the machine accepts from here, picked by the command.
 */
export function commonStep<S, E>(cmd: CommonCommand<E>, who: Actor, state: S, now: Date, kind: StepRules<S, E>): [E | CommonEvent, Actor] {
  switch (cmd.kind) {
    case 'plain':
      return [cmd.event, who]
    case 'reprice':
      return [{ type: 'set_payment_method', paymentMethod: cmd.method, charge: cmd.charge, chargeCalculatorVersion: 1 }, who]
    case 'progress': {
      const events = kind.wellFormedEvents(state)
      const moves = (cmd.forward ? events.filter((event) => !isChargebackEvent((event as { type: string }).type)) : events).flatMap(
        (event) =>
          everyActor.flatMap((actor): [E, Actor][] => {
            const result = kind.transition(state, event, actor, now)
            if (!result.ok || result.next === state) return []
            return cmd.forward && kind.abandons(result.next, actor) ? [] : [[event, actor]]
          }),
      )
      return moves[cmd.pick % Math.max(moves.length, 1)] ?? [kind.stuck, who]
    }
  }
}

/** Replays random steps from `state` at `now`: the state reached, the clock and the ledger entries written. */
export function replay<S, E, C>(
  machine: {
    transition: (state: S, event: E, actor: Actor, now: Date) => Result<S>
    toStep: (command: C, who: Actor, state: S, now: Date) => [E, Actor]
  },
  start: { state: S; now: Date },
  steps: readonly { command: C; actor: Actor; wait: number }[],
): { state: S; now: Date; entries: Entry[] } {
  let { state, now } = start
  const entries: Entry[] = []
  for (const { command, actor: who, wait } of steps) {
    now = new Date(now.getTime() + wait * 1000)
    const result = machine.transition(state, ...machine.toStep(command, who, state, now), now)
    if (result.ok) {
      entries.push(...ledgerEntries(result.effects))
      state = result.next
    }
  }
  return { state, now, entries }
}

/** The kind under test, as the step invariants need to know it. */
export interface KindRules<S extends CommonState<string>> {
  readonly statuses: readonly S['status'][]
  readonly isTerminal: (status: S['status']) => boolean
  /** Where the complaint window runs: the timer may release the money only from there. */
  readonly isInComplaintWindow: (state: S) => boolean
}

/**
 * The invariants of one step that hold for both kinds; `before` is a copy of
 * `state` taken before the step. Answers the accepted step, or null for a
 * refusal (whose shape is checked here).
 */
export function expectCommonStep<S extends CommonState<string>>(
  kind: KindRules<S>,
  seen: { state: S; before: S; event: { readonly type: string }; by: Actor; now: Date; fromListing: boolean; result: Result<S> },
): Step<S> | null {
  const { state, event, by, now, result } = seen
  // The input is never mutated, whatever the outcome.
  expect(state).toEqual(seen.before)
  if (!result.ok) {
    expect(Object.keys(result).sort()).toEqual(['code', 'ok', 'status'])
    // A listing's acceptance is a path a transaction offered by join code does not have.
    const listingPath = (event.type === 'accept_listing' || event.type === 'reject_listing') && !seen.fromListing
    expect(listingPath ? [403, 404, 409] : [400, 403, 409]).toContain(result.status)
    expect(result.status).toBe(refusalStatus[result.code])
    return null
  }
  const { next, effects } = result
  // A listing's sale leaves its wait only by the seller's answer or the buyer's withdrawal, and holds nothing meanwhile.
  if (awaitsSellerAcceptance(state)) {
    expect(state.amountHeld).toBe(0)
    if (next.status !== state.status) {
      expect([
        ['joined', 'seller'],
        ['rejected', 'seller'],
        ['cancelled', 'buyer'],
        ['cancelled', 'partner'],
      ]).toContainEqual([next.status, by.kind])
    }
  }
  // The partner client only calls a sale off, and only before anyone paid: no money moves, none is held.
  if (by.kind === 'partner' && next !== state) {
    expect(next.status).toBe('cancelled')
    expect(['created', 'joined']).toContain(state.status)
    expect(state.isPaymentInProgress).toBe(false)
    expect(state.amountHeld).toBe(0)
    expect(effects.filter((e) => e.type === 'ledger' || e.type === 'provider' || e.type === 'schedule')).toEqual([])
  }
  expect(kind.statuses).toContain(next.status)
  if (kind.isTerminal(state.status)) {
    // Terminal states are never left and escrow moves no more; only
    // money that arrives late is sent straight back, and a card dispute
    // on money already gone is booked beside escrow (and recovered from the seller).
    expect(next.status).toBe(state.status)
    expect(
      effects.filter(
        (e) =>
          (e.type === 'ledger' && e.postings.some((posting) => posting.account === 'escrow')) ||
          (e.type === 'provider' && e.action !== 'reverse_transfer' && !e.idempotencyAction.startsWith('refund-unheld:')),
      ),
    ).toEqual([])
  }
  // Money goes to the seller only after the complaint window (an undisputed
  // delivery, a handover) or by an admin's decision; a complaint is never
  // overridden by the timer.
  // A case ends by the seller's acceptance, an offer either party accepted, or an admin.
  const settled = event.type === 'accept_settlement'
  if (next.status === 'funds_released' && state.status !== 'funds_released') {
    expect(kind.isInComplaintWindow(state) || by.kind === 'admin' || settled).toBe(true)
  }
  // A card dispute lost while the money was held ends the case with the sale.
  const chargebackLost = event.type === 'dispute_changed' && next.chargeback?.status === 'lost'
  if (state.status === 'complained' && next.status !== 'complained') {
    expect(settled || chargebackLost || ['seller', 'admin'].includes(by.kind)).toBe(true)
  }
  // A split leaves both parts above zero and the buyer never gets back more than was held.
  if (effects.some((e) => e.type === 'ledger' && e.entry === 'split')) {
    expect(next.status).toBe('funds_released')
    expect(next.amountReleased).toBeGreaterThan(0)
    expect(next.amountRefunded - state.amountRefunded).toBeGreaterThan(0)
    expect(next.amountReleased + next.amountRefunded - state.amountRefunded).toBeLessThanOrEqual(state.amountHeld)
  }
  // At most one offer is open, and only while the case is.
  const open = next.complaint?.offers.filter((offer) => offer.outcome === 'open').length ?? 0
  expect(open).toBeLessThanOrEqual(next.status === 'complained' ? 1 : 0)
  // The state entered is stamped at this instant; earlier stamps stay.
  const stamps = (s: S) => s.timestamps as Readonly<Record<string, Date | null>>
  if (next.status !== state.status) expect(stamps(next)[next.status]).toEqual(now)
  for (const status of kind.statuses) {
    if (stamps(state)[status] !== null) expect(stamps(next)[status]).toEqual(stamps(state)[status])
  }
  return result
}

/**
 * The ledger so far against the state after a step: no rule broken, the
 * state's escrow is the ledger's, nothing left in escrow once `emptied` (over,
 * or a refund decided), and money sent straight back refunded on top of what
 * left escrow, never alongside a release.
 */
export function expectLedgerAgrees(
  entries: readonly LedgerEntry[],
  state: TransactionState,
  { terminal, emptied }: { terminal: boolean; emptied: boolean },
) {
  expect(ledgerBreaches({ entries, terminal, openDispute: isChargebackOpen(state.chargeback) })).toEqual([])
  expect(escrowBalances(entries).get('eur') ?? 0).toBe(escrowBalance(state))
  if (emptied) expect(escrowBalance(state)).toBe(0)
  const returned = sentBack(entries)
  expect(returned).toBe(state.amountRefunded - refundedFromEscrow(entries))
  expect(bothWaysOnlyBySplit(state, entries)).toBe(true)
}

/** One step of `walk` the machine accepted, with the ledger entries it wrote and all written so far. */
export interface WalkedStep<S, E> {
  readonly state: S
  readonly event: E
  readonly next: S
  readonly effects: readonly Effect[]
  readonly newEntries: readonly Entry[]
  readonly entries: readonly Entry[]
}

/**
 * Walks a random history from `start`, checking what every step keeps
 * (`expectCommonStep`) and that every ledger entry it writes sums to zero;
 * yields each accepted step for the kind's own checks.
 */
export function* walk<S extends CommonState<string>, E extends { readonly type: string }, C>(
  machine: KindRules<S> & {
    transition: (state: S, event: E, actor: Actor, now: Date) => Result<S>
    toStep: (command: C, who: Actor, state: S, now: Date) => [E, Actor]
  },
  start: { state: S; now: Date; fromListing: boolean },
  steps: readonly { command: C; actor: Actor; wait: number }[],
): Generator<WalkedStep<S, E>> {
  let { state, now } = start
  const entries: Entry[] = []
  for (const { command, actor: who, wait } of steps) {
    now = new Date(now.getTime() + wait * 1000)
    const before = structuredClone(state)
    const [event, by] = machine.toStep(command, who, state, now)
    const result = machine.transition(state, event, by, now)
    const accepted = expectCommonStep(machine, { state, before, event, by, now, fromListing: start.fromListing, result })
    if (!accepted) continue
    const { next, effects } = accepted
    const newEntries = ledgerEntries(effects)
    for (const entry of newEntries) expect(entrySumsToZero(entry.postings)).toBe(true)
    entries.push(...newEntries)
    yield { state, event, next, effects, newEntries, entries }
    state = next
  }
}

/** What went straight back to the buyer without entering escrow (`refund_unheld`). */
export function sentBack(entries: readonly LedgerEntry[]): number {
  return refundedBy(entries, 'refund_unheld')
}

/** What a refund, or a split's refunded part, returned out of escrow. */
export function refundedFromEscrow(entries: readonly LedgerEntry[]): number {
  return (
    refundedBy(entries, 'refund') +
    refundedBy(entries, 'split') +
    refundedBy(entries, 'chargeback_refund') +
    refundedBy(entries, 'chargeback_loss')
  )
}

/** Released and refunded at once only by a split (a settled or decided case). */
export function bothWaysOnlyBySplit(state: CommonState<string>, entries: readonly LedgerEntry[]): boolean {
  // A dispute lost after the release gives the buyer back money the seller was paid.
  const both = entries.some((entry) => entry.entry === 'split' || entry.entry === 'chargeback_loss')
  return state.amountReleased === 0 || state.amountRefunded - sentBack(entries) === 0 || both
}

function refundedBy(entries: readonly LedgerEntry[], kind: LedgerEntry['entry']): number {
  return entries
    .filter((entry) => entry.entry === kind)
    .flatMap((entry) => entry.postings)
    .reduce((sum, posting) => sum + (posting.account === 'buyer_refund' ? posting.amount : 0), 0)
}

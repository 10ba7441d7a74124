import {
  type Actor,
  addSeconds,
  type CommonState,
  type Effect,
  enter,
  heldInEscrow,
  noop,
  notifyBoth,
  refuse,
  type Result,
  type StatePosting,
  step,
  type TimerKind,
} from './kernel.ts'
import { closeOpenOffer } from './dispute-case.ts'
import { type RefundCall, refundCallEffects } from './postings.ts'

/**
 * Card disputes (chargebacks) and early fraud warnings, alike in both kinds
 * (issue 34, docs/decisions/109). The buyer's bank takes the disputed money
 * back from the platform at once and decides weeks later. The provider's
 * news is a snapshot of the dispute as it is now (`dispute_changed`), so a
 * late, repeated or out-of-order delivery is reconciled with what the sale
 * already knows: a dispute only moves forward (needs_response →
 * under_review → won | lost), and each step writes its ledger entry once.
 *
 * - Money still held: the disputed amount leaves escrow for `disputed`, and
 *   the sale is frozen (no party step, no timer) until the dispute closes.
 *   Won: it comes back and the sale goes on, its deadlines moved by the time
 *   it was frozen. Lost: the bank returned it to the buyer, and whatever
 *   else is held is refunded: the sale ends refunded.
 * - Money already gone (released, refunded): the platform carries the loss
 *   (`chargeback_losses` → `disputed`); won, it comes back; lost, it went to
 *   the buyer, and an admin may recover it from the seller (`recover_chargeback`).
 * - The provider's dispute fee is booked as it reports it (`dispute_fees`).
 */

export const chargebackStatuses = ['needs_response', 'under_review', 'won', 'lost'] as const
export type ChargebackStatus = (typeof chargebackStatuses)[number]

export function isChargebackStatus(value: unknown): value is ChargebackStatus {
  return (chargebackStatuses as readonly unknown[]).includes(value)
}

/** The provider's fee on a dispute, in the currency it charged it (the platform's, not always the sale's). */
export interface DisputeFee {
  readonly amount: number
  readonly currency: string
}

/** What the provider says of a dispute now. */
export interface DisputeNews {
  /** The provider's dispute id (`du_…`). */
  readonly id: string
  readonly paymentIntentId: string
  readonly status: ChargebackStatus
  /** Minor units of the sale's currency. */
  readonly amount: number
  /** The card network's reason (`fraudulent`, `product_not_received`, …). */
  readonly reason: string
  readonly evidenceDueBy: Date | null
  /** Net of any fee the provider gave back; null when it has charged none (yet). */
  readonly fee: DisputeFee | null
}

export interface Chargeback {
  readonly id: string
  readonly paymentIntentId: string
  readonly status: ChargebackStatus
  readonly amount: number
  readonly reason: string
  readonly evidenceDueBy: Date | null
  readonly openedAt: Date
  readonly closedAt: Date | null
  /** The disputed money was held when it opened: the sale is frozen while it is open. */
  readonly froze: boolean
  /** The fee as booked so far. */
  readonly fee: DisputeFee | null
  readonly evidenceSubmittedAt: Date | null
  /** Taken back from the seller after a loss on money already released. */
  readonly recovered: number
}

/** The provider's early warning that a payment may be fraudulent: no release until an admin clears it. */
export interface FraudWarning {
  readonly id: string
  readonly paymentIntentId: string
  readonly fraudType: string
  readonly receivedAt: Date
  readonly clearedAt: Date | null
}

export type ChargebackEvent =
  | { readonly type: 'dispute_changed'; readonly dispute: DisputeNews }
  /** An admin sent the evidence to the provider (the provider's own news says `under_review`). */
  | { readonly type: 'chargeback_evidence_submitted' }
  /** An admin accepted the dispute at the provider, which closes it lost (the provider's own news moves the money). */
  | { readonly type: 'chargeback_accepted' }
  | {
      readonly type: 'early_fraud_warning'
      readonly warning: { readonly id: string; readonly paymentIntentId: string; readonly fraudType: string }
    }
  | { readonly type: 'clear_fraud_warning' }
  /** An admin takes back from the seller (a transfer reversal) what a lost dispute cost the platform. */
  | { readonly type: 'recover_chargeback'; readonly amount: number }

export type ChargebackEventType = ChargebackEvent['type']

const statusRank: Readonly<Record<ChargebackStatus, number>> = { needs_response: 0, under_review: 1, won: 2, lost: 2 }

export function isChargebackOpen(chargeback: Chargeback | null): chargeback is Chargeback {
  return chargeback !== null && chargeback.closedAt === null
}

/** Held money is in dispute: the sale waits for the outcome. */
export function isFrozen(state: CommonState<string>): boolean {
  return isChargebackOpen(state.chargeback) && state.chargeback.froze
}

export function hasOpenFraudWarning(state: CommonState<string>): boolean {
  return state.fraudWarning !== null && state.fraudWarning.clearedAt === null
}

/** What a kind says about its money for a lost dispute: every held payment's full refund (`refundEverything`). */
export interface ChargebackKind<S> {
  readonly heldRefunds: (state: S) => RefundCall[]
}

type Common = CommonState<string>

/** The events a frozen sale still takes: the provider's news, messages, and the admin's steps on the dispute. */
const takenWhileFrozen = new Set<string>([
  'dispute_changed',
  'chargeback_evidence_submitted',
  'chargeback_accepted',
  'early_fraud_warning',
  'clear_fraud_warning',
  'post_message',
  'payment_started',
  'payment_succeeded',
  'payment_failed',
  'refund_succeeded',
])

const timerEvents = new Set<string>(['tracking_deadline_elapsed', 'complaint_window_elapsed', 'case_response_elapsed'])

/**
 * Runs before and after every handler of both machines (handler-table.ts).
 * A frozen sale refuses every step but those above (`chargeback_open`), and
 * its timers do nothing: the outcome of the dispute reschedules them. An
 * open fraud warning refuses any step that would pay the seller
 * (`fraud_warning_open`); a timer that would is dropped, and clearing the
 * warning fires it again.
 */
export function guardMoney<S extends Common>(state: S, eventType: string, run: () => Result<S>): Result<S> {
  if (isFrozen(state) && !takenWhileFrozen.has(eventType)) return timerEvents.has(eventType) ? noop(state) : refuse('chargeback_open')
  const result = run()
  if (!result.ok || !hasOpenFraudWarning(state) || !paysSeller(result.effects)) return result
  return timerEvents.has(eventType) ? noop(state) : refuse('fraud_warning_open')
}

function paysSeller(effects: readonly Effect[]): boolean {
  return effects.some((effect) => effect.type === 'provider' && effect.action === 'transfer' && effect.amount > 0)
}

export function chargebackHandlers<S extends Common>(kind: ChargebackKind<S>) {
  return {
    dispute_changed: (state: S, event: { readonly dispute: DisputeNews }, actor: Actor, now: Date): Result<S> => {
      // The provider's news, or its answer to an admin's call (evidence, acceptance).
      if (actor.kind !== 'system' && actor.kind !== 'admin') return refuse('forbidden')
      const news = event.dispute
      if (!isWellFormed(news)) return refuse('validation_failed')
      const current = state.chargeback
      if (current !== null && current.id !== news.id) {
        // One dispute at a time: a second on the other payment of a face-to-face sale waits for an operator.
        if (isChargebackOpen(current)) return refuse('chargeback_open')
      }
      const opened = current === null || current.id !== news.id ? openChargeback(kind, state, news, now) : { next: state, effects: [] }
      return advance(kind, opened.next, news, now, opened.effects)
    },

    chargeback_evidence_submitted: (state: S, _event: unknown, actor: Actor, now: Date): Result<S> => {
      if (actor.kind !== 'admin') return refuse('not_admin')
      const chargeback = state.chargeback
      if (!isChargebackOpen(chargeback)) return refuse('no_open_chargeback')
      return step({ ...state, chargeback: { ...chargeback, evidenceSubmittedAt: now } })
    },

    chargeback_accepted: (state: S, _event: unknown, actor: Actor): Result<S> => {
      if (actor.kind !== 'admin') return refuse('not_admin')
      // Only written to the history, with the admin's reason: the provider's news of the loss
      // may have been applied already (its webhook came before its answer), and then says nothing more.
      if (state.chargeback === null) return refuse('no_open_chargeback')
      return step(state, [{ type: 'audit' }])
    },

    early_fraud_warning: (
      state: S,
      event: { readonly warning: { id: string; paymentIntentId: string; fraudType: string } },
      actor: Actor,
      now: Date,
    ): Result<S> => {
      if (actor.kind !== 'system') return refuse('forbidden')
      if (state.fraudWarning?.id === event.warning.id) return noop(state)
      // The buyer is not told: the warning is the card owner's, who may not be this buyer.
      return step({ ...state, fraudWarning: { ...event.warning, receivedAt: now, clearedAt: null } })
    },

    clear_fraud_warning: (state: S, _event: unknown, actor: Actor, now: Date): Result<S> => {
      if (actor.kind !== 'admin') return refuse('not_admin')
      if (!hasOpenFraudWarning(state) || state.fraudWarning === null) return refuse('no_fraud_warning')
      // A release the warning held back is due again now (its timer was dropped).
      const due: Effect[] = state.complaintPeriodDeadline !== null ? [{ type: 'schedule', timer: 'complaint_window', at: now }] : []
      return step({ ...state, fraudWarning: { ...state.fraudWarning, clearedAt: now } }, due)
    },

    recover_chargeback: (state: S, event: { readonly amount: number }, actor: Actor): Result<S> => {
      if (actor.kind !== 'admin') return refuse('not_admin')
      const chargeback = state.chargeback
      if (chargeback === null || chargeback.status !== 'lost' || chargeback.froze) return refuse('no_chargeback_loss')
      const recoverable = Math.min(chargeback.amount, state.amountReleased) - chargeback.recovered
      if (!Number.isSafeInteger(event.amount) || event.amount <= 0) return refuse('validation_failed')
      if (event.amount > recoverable) return refuse('recovery_too_high')
      const currency = state.currency
      return step({ ...state, chargeback: { ...chargeback, recovered: chargeback.recovered + event.amount } }, [
        {
          type: 'ledger',
          entry: 'chargeback_recovery',
          postings: [
            { account: 'seller', amount: -event.amount, currency },
            { account: 'chargeback_losses', amount: event.amount, currency },
          ],
        },
        {
          type: 'provider',
          action: 'reverse_transfer',
          amount: event.amount,
          currency,
          // Each recovery names how much was recovered before it: a second, later one is its own movement.
          idempotencyAction: `reverse-transfer:${chargeback.id}:${chargeback.recovered}`,
          paymentIntentId: chargeback.paymentIntentId,
        },
        { type: 'notify', template: 'chargeback_recovered', to: 'seller' },
      ])
    },
  }
}

function isWellFormed(news: DisputeNews): boolean {
  const feeOk = news.fee === null || (Number.isSafeInteger(news.fee.amount) && news.fee.currency !== '')
  return (
    news.id !== '' &&
    news.paymentIntentId !== '' &&
    isChargebackStatus(news.status) &&
    Number.isSafeInteger(news.amount) &&
    news.amount > 0 &&
    feeOk
  )
}

/** What escrow holds of this payment: nothing once a release or refund began, or for a payment the sale never held. */
function heldOf<S extends Common>(kind: ChargebackKind<S>, state: S, paymentIntentId: string): number {
  if (heldInEscrow(state) === 0) return 0
  return kind.heldRefunds(state).find((refund) => refund.paymentIntentId === paymentIntentId)?.amount ?? 0
}

function openChargeback<S extends Common>(kind: ChargebackKind<S>, state: S, news: DisputeNews, now: Date): { next: S; effects: Effect[] } {
  const held = heldOf(kind, state, news.paymentIntentId)
  const froze = held > 0
  const amount = froze ? Math.min(news.amount, held) : news.amount
  const currency = state.currency
  const source: StatePosting = froze
    ? { account: 'escrow', amount: -amount, currency }
    : { account: 'chargeback_losses', amount: -amount, currency }
  const chargeback: Chargeback = {
    id: news.id,
    paymentIntentId: news.paymentIntentId,
    status: 'needs_response',
    amount,
    reason: news.reason,
    evidenceDueBy: news.evidenceDueBy,
    openedAt: now,
    closedAt: null,
    froze,
    fee: null,
    evidenceSubmittedAt: null,
    recovered: 0,
  }
  return {
    next: { ...state, chargeback },
    effects: [
      { type: 'ledger', entry: 'dispute_opened', postings: [source, { account: 'disputed', amount, currency }] },
      ...notifyBoth('chargeback_opened', 'seller'),
    ],
  }
}

/**
 * Moves the recorded dispute to what the news says, never back, and books a
 * changed fee. News behind what is recorded (an earlier step delivered late,
 * or anything after the close) changes nothing, its fee included: the fee
 * it shows is the one of its moment.
 */
function advance<S extends Common>(kind: ChargebackKind<S>, state: S, news: DisputeNews, now: Date, effects: Effect[]): Result<S> {
  const current = state.chargeback as Chargeback
  const stale = current.closedAt !== null || statusRank[news.status] < statusRank[current.status]
  if (stale) return effects.length === 0 ? noop(state) : step(state, effects)
  const feeEffects = bookFee(current.fee, news.fee)
  const withFee: S = feeEffects.length > 0 ? { ...state, chargeback: { ...current, fee: news.fee } } : state
  const all = [...effects, ...feeEffects]
  if (news.status === 'won' || news.status === 'lost') return close(kind, withFee, withFee.chargeback as Chargeback, news.status, now, all)
  const updated = { ...(withFee.chargeback as Chargeback), status: news.status, evidenceDueBy: news.evidenceDueBy ?? current.evidenceDueBy }
  const changed = updated.status !== current.status || updated.evidenceDueBy?.getTime() !== current.evidenceDueBy?.getTime()
  if (!changed) return all.length === 0 ? noop(state) : step(withFee, all)
  return step({ ...withFee, chargeback: updated }, all)
}

function bookFee(booked: DisputeFee | null, reported: DisputeFee | null): Effect[] {
  if (reported === null) return []
  // A fee in another currency than the one booked would be a new charge; the provider keeps one per dispute.
  const before = booked !== null && booked.currency === reported.currency ? booked.amount : 0
  const delta = reported.amount - before
  if (delta === 0) return []
  const currency = reported.currency as StatePosting['currency']
  return [
    {
      type: 'ledger',
      entry: 'dispute_fee',
      postings: [
        { account: 'revenue', amount: -delta, currency },
        { account: 'dispute_fees', amount: delta, currency },
      ],
    },
  ]
}

function close<S extends Common>(
  kind: ChargebackKind<S>,
  state: S,
  chargeback: Chargeback,
  outcome: 'won' | 'lost',
  now: Date,
  effects: Effect[],
): Result<S> {
  const closed: Chargeback = { ...chargeback, status: outcome, closedAt: now }
  const { amount } = chargeback
  const currency = state.currency
  if (outcome === 'won') {
    const back: StatePosting = chargeback.froze
      ? { account: 'escrow', amount, currency }
      : { account: 'chargeback_losses', amount, currency }
    const resumed = chargeback.froze ? resume(state, now.getTime() - chargeback.openedAt.getTime()) : { state, timers: [] }
    return step({ ...resumed.state, chargeback: closed }, [
      ...effects,
      { type: 'ledger', entry: 'dispute_won', postings: [{ account: 'disputed', amount: -amount, currency }, back] },
      ...resumed.timers,
      ...notifyBoth('chargeback_won', 'seller'),
    ])
  }
  if (!chargeback.froze) {
    // The money was no longer held: the bank gave it back to the buyer out of the platform's.
    return step({ ...state, chargeback: closed, amountRefunded: state.amountRefunded + amount }, [
      ...effects,
      {
        type: 'ledger',
        entry: 'chargeback_loss',
        postings: [
          { account: 'disputed', amount: -amount, currency },
          { account: 'buyer_refund', amount, currency },
        ],
      },
      ...notifyBoth('chargeback_lost', 'seller'),
    ])
  }
  return endRefunded(kind, { ...state, chargeback: closed }, closed, now, effects)
}

/**
 * Lost while held: the bank returned the disputed amount, and Pactum refunds
 * the rest of what it holds, each payment its own share, so that the sale
 * ends as a refunded one and escrow at zero.
 */
function endRefunded<S extends Common>(kind: ChargebackKind<S>, state: S, chargeback: Chargeback, now: Date, effects: Effect[]): Result<S> {
  const { amount } = chargeback
  const currency = state.currency
  let bankReturned = amount
  const refunds = kind.heldRefunds(state).map((refund) => {
    if (refund.paymentIntentId !== chargeback.paymentIntentId) return refund
    const taken = Math.min(refund.amount, bankReturned)
    bankReturned -= taken
    return { ...refund, amount: refund.amount - taken }
  })
  const refunded = refunds.reduce((sum, refund) => sum + refund.amount, 0)
  const remaining = state.amountHeld - amount
  const postings: StatePosting[] = [
    { account: 'disputed', amount: -amount, currency },
    { account: 'buyer_refund', amount: amount + refunded, currency },
  ]
  if (remaining !== 0) postings.push({ account: 'escrow', amount: -remaining, currency })
  if (remaining - refunded !== 0) postings.push({ account: 'revenue', amount: remaining - refunded, currency })
  // A case that was open ends with the sale: an offer still open lapses.
  const complaint = state.complaint === null ? null : { ...state.complaint, offers: closeOpenOffer(state.complaint, 'lapsed', now) }
  const next = enter(state, 'payment_refunded' as S['status'], now, {
    amountRefunded: state.amountRefunded + state.amountHeld,
    complaint,
  } as Partial<S>)
  return step(next, [
    ...effects,
    { type: 'ledger', entry: 'chargeback_refund', postings },
    ...refundCallEffects(currency, refunds),
    ...notifyBoth('chargeback_lost'),
  ])
}

/**
 * A sale unfrozen goes on where it stopped: every deadline it had moves by
 * the time it was frozen, and its timers are set again (a timer that finds
 * its state gone does nothing).
 */
function resume<S extends Common>(state: S, frozenMs: number): { state: S; timers: Effect[] } {
  const later = (date: Date | null) => (date === null ? null : addSeconds(date, frozenMs / 1000))
  const timers: Effect[] = []
  const schedule = (timer: TimerKind, at: Date | null) => {
    if (at !== null) timers.push({ type: 'schedule', timer, at })
  }
  const complaintPeriodDeadline = later(state.complaintPeriodDeadline)
  schedule('complaint_window', complaintPeriodDeadline)
  const complaint = state.complaint === null ? null : { ...state.complaint, responseDeadline: later(state.complaint.responseDeadline) }
  if (complaint !== null && complaint.escalatedAt === null) schedule('case_response', complaint.responseDeadline)
  const patch: Record<string, unknown> = { complaintPeriodDeadline, complaint }
  if ('trackingDeadline' in state) {
    const trackingDeadline = later((state as { trackingDeadline: Date | null }).trackingDeadline)
    patch.trackingDeadline = trackingDeadline
    schedule('tracking_deadline', trackingDeadline)
  }
  return { state: { ...state, ...patch }, timers }
}

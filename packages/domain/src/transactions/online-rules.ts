import {
  addSeconds,
  type Effect,
  endedReason,
  enter,
  notifyBoth,
  type RefusalCode,
  type ReturnReason,
  type Result,
  step,
  type TransactionPolicy,
} from './kernel.ts'
import { type OnlineState, type OnlineStatus } from './online-state.ts'
import { type RefundCall, refundEffects } from './postings.ts'
import { type DisputedMoney, refundHeld, releaseHeld } from './settlement.ts'

/**
 * What the online handlers (`online-transaction.ts`) share: when a sale is
 * over or paid or shipped, and the money moves (release, refund, cancellation
 * after payment, delivery and its complaint window).
 */

/** The states over with the money back or none taken (`endedReason`). */
const cancelledStatuses: readonly OnlineStatus[] = ['cancelled', 'rejected', 'cancelled_with_payment', 'payment_refunded']

export function ended(status: OnlineStatus): RefusalCode | null {
  return endedReason(status, cancelledStatuses)
}

export const paidStatuses: readonly OnlineStatus[] = ['paid', 'tracked', 'delivered', 'complained', 'complaint_period_ended']

/**
 * For actions that only make sense before the buyer pays, outside `joined`:
 * in `created` the seller has not joined yet (only a buyer who created the
 * transaction is a party then).
 */
export function paidAlready(status: OnlineStatus): RefusalCode {
  return paidStatuses.includes(status) ? 'already_paid' : (ended(status) ?? 'not_accepted')
}

/** For steps that belong before the shipment (the seller's cancel, the buyer's order issue): what has happened since. */
export function shippedAlready(status: OnlineStatus): RefusalCode | null {
  switch (status) {
    case 'tracked':
      return 'tracking_already_added'
    case 'delivered':
      return 'delivery_already_set'
    case 'complained':
      return 'already_complained'
    case 'complaint_period_ended':
      return 'complaint_period_expired'
    default:
      return null
  }
}

export function sellerPayout(state: OnlineState): number {
  return state.price - state.chargeSeller
}

export function releaseToSeller(state: OnlineState, now: Date, extra: readonly Effect[]): Result<OnlineState> {
  return releaseHeld(state, sellerPayout(state), now, extra)
}

/** DESIGN §2: an online refund returns everything the buyer paid, fee included: the seller failed, not the buyer. */
export function fullRefund(state: OnlineState): RefundCall[] {
  return refundOf(state, state.amountHeld)
}

function refundOf(state: OnlineState, amount: number): RefundCall[] {
  return [{ paymentIntentId: state.paymentIntentId, amount, idempotencyAction: 'refund' }]
}

/** A case over an online sale is about its price and fees, paid in one payment. */
export function disputed(state: OnlineState): DisputedMoney {
  return { price: state.price, buyerFee: state.charge, sellerFee: state.chargeSeller, refunds: (amount) => refundOf(state, amount) }
}

export function refundToBuyer(state: OnlineState, now: Date, extra: readonly Effect[]): Result<OnlineState> {
  return refundHeld(state, fullRefund(state), now, extra)
}

/**
 * The money leaves escrow when the refund is decided (ledger and outbox in the
 * same commit); `refund_succeeded` from the provider then closes the case.
 */
export function cancelWithPayment(state: OnlineState, now: Date): Result<OnlineState> {
  return step(enter(state, 'cancelled_with_payment', now, { amountRefunded: state.amountRefunded + state.amountHeld }), [
    { type: 'cancel_timer', timer: 'tracking_deadline' },
    ...refundEffects({ currency: state.currency, held: state.amountHeld, refunds: fullRefund(state) }),
    ...notifyBoth('cancelled_with_payment'),
  ])
}

export function enterDelivered(state: OnlineState, now: Date, policy: TransactionPolicy): Result<OnlineState> {
  const deadline = addSeconds(now, policy.complaintPeriodSeconds)
  return step(enter(state, 'delivered', now, { complaintPeriodDeadline: deadline }), [
    { type: 'schedule', timer: 'complaint_window', at: deadline },
    ...notifyBoth('delivered'),
  ])
}

/** Why a payment that succeeded is not held (payment_succeeded), for the history and the buyer's e-mail. */
export function returnReason(state: OnlineState, paymentIntentId: string): ReturnReason {
  if (state.status === 'cancelled' || state.status === 'rejected') return 'cancelled'
  if (state.amountHeld > 0 || state.paymentIntentId !== paymentIntentId) return 'superseded'
  return state.status === 'joined' ? 'wrong_amount' : 'not_due'
}

/** Why an admin cannot settle: the money is not held yet, the goods not on their way yet, or the release has begun. */
export function notSettleable(status: OnlineStatus): RefusalCode {
  if (status === 'paid') return 'tracking_not_added'
  if (status === 'complaint_period_ended') return 'complaint_period_expired'
  return ended(status) ?? 'not_paid'
}

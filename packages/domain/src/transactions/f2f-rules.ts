import type { PaymentPart } from './f2f-transaction.ts'
import { depositAmount, type F2fState, type F2fStatus, remainderAmount } from './f2f-state.ts'
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
import { type RefundCall, refundEffects } from './postings.ts'
import { type DisputedMoney, refundHeld, releaseHeld } from './settlement.ts'

/**
 * What the face-to-face handlers (`f2f-transaction.ts`) share: when a sale
 * is over, which part is due and its payment, and the money moves (release,
 * refund, cancellation with the deposit, the complaint window).
 */

/** The states over with the money back or none taken (`endedReason`); a deposit refund on its way counts. */
const cancelledStatuses: readonly F2fStatus[] = ['cancelled', 'rejected', 'cancelled_with_deposit', 'deposit_refunded', 'payment_refunded']

export function ended(status: F2fStatus): RefusalCode | null {
  return endedReason(status, cancelledStatuses)
}

export const beforeDeposit: readonly F2fStatus[] = ['created', 'joined']
/** The deposit is held and the remainder not yet settled: a cancellation returns the deposit less its fee. */
export const depositHeld: readonly F2fStatus[] = ['deposit_paid', 'deposit_accepted', 'priced']
export const remainderSettled: readonly F2fStatus[] = ['remainder_paid', 'remainder_skipped']
export const afterHandover: readonly F2fStatus[] = [
  'seller_handover_confirmed',
  'buyer_handover_confirmed',
  'complained',
  'complaint_period_ended',
]

/** The payment due now: the deposit once joined, the remainder once priced. */
export function duePart(state: F2fState): PaymentPart | null {
  if (state.status === 'joined') return 'deposit'
  if (state.status === 'priced') return 'remainder'
  return null
}

export function intentOf(state: F2fState, part: PaymentPart): string | null {
  return part === 'deposit' ? state.paymentIntentId : state.remainderPaymentIntentId
}

export function withIntent(state: F2fState, part: PaymentPart, paymentIntentId: string): F2fState {
  return part === 'deposit' ? { ...state, paymentIntentId } : { ...state, remainderPaymentIntentId: paymentIntentId }
}

/** Before the deposit is held: still to pay, or on its way (SEPA). */
export function depositDue(state: F2fState): RefusalCode {
  return state.status === 'joined' && state.isPaymentInProgress ? 'deposit_payment_in_review' : 'deposit_not_paid'
}

/** Why a payment of `part` cannot be opened in this state (it is not the one due now). */
export function notPayable(state: F2fState, part: PaymentPart): RefusalCode {
  if (part === 'deposit') {
    const paid = depositHeld.includes(state.status) || remainderSettled.includes(state.status) || afterHandover.includes(state.status)
    // Left: `created`, where the seller has not joined yet (the deposit is due once joined).
    return paid ? 'already_paid' : (ended(state.status) ?? 'not_accepted')
  }
  switch (state.status) {
    case 'created':
    case 'joined':
      return depositDue(state)
    case 'deposit_paid':
    case 'deposit_accepted':
      return 'price_not_set'
    case 'remainder_skipped':
      return 'remainder_already_skipped'
    default:
      // Left: paid, after the handover, or over (`priced` has the remainder due).
      return ended(state.status) ?? 'remainder_already_paid'
  }
}

/** The seller's share of what is held: the deposit, and the remainder only once it was paid (an admin may settle a priced sale). */
export function sellerPayout(state: F2fState): number {
  const deposit = state.price - state.chargeSeller
  const remainder = state.timestamps.remainder_paid !== null ? state.pricing : null
  return remainder ? deposit + (remainder.price - state.price) - remainder.chargeSeller : deposit
}

export function releaseToSeller(state: F2fState, now: Date, extra: readonly Effect[]): Result<F2fState> {
  return releaseHeld(state, sellerPayout(state), now, extra)
}

/** Everything the buyer paid and the sale holds, each payment's own refund. */
export function heldRefunds(state: F2fState): RefundCall[] {
  const refunds: RefundCall[] = [
    { paymentIntentId: state.paymentIntentId, amount: depositAmount(state), idempotencyAction: 'refund:deposit' },
  ]
  if (state.timestamps.remainder_paid !== null) {
    refunds.push({ paymentIntentId: state.remainderPaymentIntentId, amount: remainderAmount(state), idempotencyAction: 'refund:remainder' })
  }
  return refunds
}

/** The seller failed (complaint accepted, admin's decision): everything the buyer paid goes back, to each payment. */
export function refundEverything(state: F2fState, now: Date, extra: readonly Effect[]): Result<F2fState> {
  return refundHeld(state, heldRefunds(state), now, extra)
}

/**
 * A case over a face-to-face sale is about what the buyer paid for the item:
 * the total once the remainder was paid, the deposit otherwise, with the fees
 * of both payments. A refund goes back to the remainder's payment first, then
 * to the deposit's.
 */
export function disputed(state: F2fState): DisputedMoney {
  const remainder = state.timestamps.remainder_paid !== null ? state.pricing : null
  return {
    price: remainder?.price ?? state.price,
    buyerFee: state.charge + (remainder?.charge ?? 0),
    sellerFee: state.chargeSeller + (remainder?.chargeSeller ?? 0),
    refunds: (amount) => {
      const fromRemainder = remainder ? Math.min(amount, remainderAmount(state)) : 0
      const refunds: RefundCall[] = [
        { paymentIntentId: state.paymentIntentId, amount: amount - fromRemainder, idempotencyAction: 'refund:deposit' },
      ]
      if (fromRemainder > 0) {
        refunds.push({ paymentIntentId: state.remainderPaymentIntentId, amount: fromRemainder, idempotencyAction: 'refund:remainder' })
      }
      return refunds
    },
  }
}

/** DESIGN §2: a cancellation after the deposit returns the deposit less its fee, which is kept. */
export function cancelWithDeposit(state: F2fState, description: string, now: Date): Result<F2fState> {
  const next = enter(state, 'cancelled_with_deposit', now, {
    amountRefunded: state.amountRefunded + state.price,
    cancellation: { description },
  })
  return step(next, [
    ...refundEffects({
      currency: state.currency,
      held: state.amountHeld,
      refunds: [{ paymentIntentId: state.paymentIntentId, amount: state.price, idempotencyAction: 'refund:deposit' }],
    }),
    ...notifyBoth('cancelled_with_deposit'),
  ])
}

export function startComplaintWindow(state: F2fState, status: F2fStatus, now: Date, policy: TransactionPolicy): Result<F2fState> {
  const deadline = addSeconds(now, policy.complaintPeriodSeconds)
  return step(enter(state, status, now, { complaintPeriodDeadline: deadline }), [
    { type: 'schedule', timer: 'complaint_window', at: deadline },
    ...notifyBoth('handover_confirmed'),
  ])
}

/** Why a payment that succeeded is not held (payment_succeeded), for the history and the buyer's e-mail. */
export function returnReason(state: F2fState, due: PaymentPart | null, paymentIntentId: string): ReturnReason {
  if (state.timestamps.remainder_skipped !== null && paymentIntentId === state.remainderPaymentIntentId) return 'remainder_skipped'
  if (state.timestamps.cancelled !== null || state.timestamps.rejected !== null || state.timestamps.cancelled_with_deposit !== null)
    return 'cancelled'
  if (due !== null && intentOf(state, due) === paymentIntentId) return 'wrong_amount'
  if (paymentIntentId !== state.paymentIntentId && paymentIntentId !== state.remainderPaymentIntentId) return 'superseded'
  return 'not_due'
}

/** Money is held and no payment is on its way: an admin may settle it either way. */
export const adminSettles: readonly F2fStatus[] = [
  ...depositHeld,
  ...remainderSettled,
  'seller_handover_confirmed',
  'buyer_handover_confirmed',
  'complained',
]

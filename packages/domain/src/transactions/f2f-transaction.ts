import { isChargeCalculatorVersion, minimumPrice } from '../fees.ts'
import { isHighValue } from '../high-value.ts'
import { depositAmount, type F2fState, type F2fStatus, isInComplaintWindow, remainderAmount } from './f2f-state.ts'
import { type Effect, enter, isBlank, noop, notifyBoth, notRole, otherParty, type Party, refuse, step } from './kernel.ts'
import { holdEffects } from './postings.ts'
import { paymentFailed, refundSettled, sendBack } from './payment-news.ts'
import { awaitsSellerAcceptance } from './listing-sale.ts'
import { chargebackHandlers } from './chargeback.ts'
import { complaintHandlers } from './complaint-window.ts'
import { type HandlerTable, machine, openingHandlers } from './handler-table.ts'
import { cancelByPartner, type CommonEvent, setPaymentMethod } from './shared-handlers.ts'
import {
  ended,
  beforeDeposit,
  depositHeld,
  remainderSettled,
  afterHandover,
  duePart,
  intentOf,
  withIntent,
  depositDue,
  notPayable,
  releaseToSeller,
  refundEverything,
  cancelWithDeposit,
  startComplaintWindow,
  returnReason,
  adminSettles,
  disputed,
  heldRefunds,
} from './f2f-rules.ts'

/**
 * The face-to-face machine (DESIGN §3 "Face-to-face states") as a table, one
 * handler per event, beside the online one and sharing its postings, timers
 * and refusals. The buyer pays a deposit; the seller accepts it and either
 * sets the total price (the buyer pays the remainder) or skips the remainder;
 * the handover starts the complaint window; then the money is released.
 */

/** CommonEvent's set_payment_method sets the deposit's method; the remainder is paid the same way. */
export type F2fEvent =
  | CommonEvent
  | { readonly type: 'cancel'; readonly description: string }
  | { readonly type: 'payment_intent_opened'; readonly part: PaymentPart; readonly paymentIntentId: string }
  | { readonly type: 'accept_deposit' }
  | {
      readonly type: 'set_price'
      /** The total, deposit included. */
      readonly price: number
      /** The fee on the remainder, computed by the caller with fees.ts. */
      readonly charge: number
      readonly chargeSeller: number
      readonly chargeCalculatorVersion: number
    }
  | { readonly type: 'skip_remainder' }
  | { readonly type: 'confirm_handover' }

export type F2fEventType = F2fEvent['type']
export type PaymentPart = 'deposit' | 'remainder'

const handlers: HandlerTable<F2fState, F2fEvent> = {
  ...openingHandlers<F2fState>(),
  ...complaintHandlers<F2fState>({ isOpen: isInComplaintWindow, ended, releaseToSeller, refundToBuyer: refundEverything, disputed }),
  ...chargebackHandlers<F2fState>({ heldRefunds }),

  cancel: (state, event, actor, now) => {
    if (actor.kind === 'partner') {
      const description = event.description.trim()
      const cancelled = cancelByPartner(
        state,
        now,
        { paid: ended(state.status) ?? 'already_paid', inProgress: 'deposit_payment_in_review' },
        { cancellation: { description } },
      )
      // Role, then state, then input: the description is judged last.
      return cancelled.ok && description === '' ? refuse('validation_failed') : cancelled
    }
    if (state.status === 'created') {
      if (actor.kind !== state.creatorRole) return refuse(notRole(state.creatorRole))
    } else if (actor.kind !== 'buyer' && actor.kind !== 'seller') {
      return refuse('forbidden')
    }
    const cancellable = state.status === 'created' || state.status === 'joined' || depositHeld.includes(state.status)
    // Left: the remainder settled, after the handover, or over.
    if (!cancellable) return refuse(ended(state.status) ?? 'already_paid')
    // Money may be on its way (SEPA); its outcome decides first.
    if (state.isPaymentInProgress) return refuse(state.status === 'joined' ? 'deposit_payment_in_review' : 'payment_in_progress')
    if (isBlank(event.description)) return refuse('validation_failed')
    const description = event.description.trim()
    if (state.status === 'created') {
      // A listing's buyer withdraws: the seller, already a party, is told.
      const told: Effect[] = awaitsSellerAcceptance(state) ? [{ type: 'notify', template: 'cancelled', to: 'seller' }] : []
      return step(enter(state, 'cancelled', now, { cancellation: { description } }), told)
    }
    if (state.status === 'joined') {
      return step(enter(state, 'cancelled', now, { cancellation: { description } }), [
        { type: 'notify', template: 'cancelled', to: otherParty(actor.kind as Party) },
      ])
    }
    return cancelWithDeposit(state, description, now)
  },

  set_payment_method: (state, event, actor) => setPaymentMethod(state, event, actor, () => refuse(notPayable(state, 'deposit'))),

  payment_intent_opened: (state, event, actor) => {
    if (actor.kind !== 'buyer') return refuse('not_buyer')
    if (duePart(state) !== event.part) return refuse(notPayable(state, event.part))
    if (state.paymentMethod === null) return refuse('invalid_payment_method')
    if (event.paymentIntentId === '' || (event.part === 'remainder' && event.paymentIntentId === state.paymentIntentId))
      return refuse('validation_failed')
    if (intentOf(state, event.part) === event.paymentIntentId) return noop(state)
    // A payment on its way cannot be swapped for another.
    if (state.isPaymentInProgress) return refuse(event.part === 'deposit' ? 'deposit_payment_in_review' : 'payment_in_progress')
    return step(withIntent(state, event.part, event.paymentIntentId))
  },

  payment_started: (state, event, actor) => {
    if (actor.kind !== 'buyer' && actor.kind !== 'system') return refuse('not_buyer')
    const part = duePart(state)
    // Only the payment opened for what is due now; late news of another changes nothing.
    if (part === null || intentOf(state, part) !== event.paymentIntentId) {
      if (actor.kind === 'system') return noop(state)
      // The buyer's report: of a payment no longer due, or of none opened here.
      const reported =
        event.paymentIntentId === state.paymentIntentId
          ? 'deposit'
          : event.paymentIntentId === state.remainderPaymentIntentId
            ? 'remainder'
            : null
      return refuse(reported ? notPayable(state, reported) : 'validation_failed')
    }
    // Late news that a payment already sent back is processing: nothing is on its way.
    if (state.isPaymentInProgress || state.returnedPaymentIntentIds.includes(event.paymentIntentId)) return noop(state)
    return step({ ...state, isPaymentInProgress: true })
  },

  payment_succeeded: (state, event, actor, now) => {
    if (actor.kind !== 'system') return refuse('forbidden')
    // The browser's confirmation and the webhook race; the second is a no-op.
    const depositTaken = state.timestamps.deposit_paid !== null && state.paymentIntentId === event.paymentIntentId
    const remainderTaken = state.timestamps.remainder_paid !== null && state.remainderPaymentIntentId === event.paymentIntentId
    if (depositTaken || remainderTaken) return noop(state)
    // Already sent back: news of it again must not hold money that is gone.
    if (state.returnedPaymentIntentIds.includes(event.paymentIntentId)) return noop(state)
    const part = duePart(state)
    const due = part === 'deposit' ? depositAmount(state) : remainderAmount(state)
    if (part === null || intentOf(state, part) !== event.paymentIntentId || event.amount !== due) {
      // Money this transaction will not hold goes straight back; if it was
      // the payment being processed, that wait is over.
      const waited = part !== null && state.isPaymentInProgress && intentOf(state, part) === event.paymentIntentId
      const payment = {
        paymentIntentId: event.paymentIntentId,
        amount: event.amount,
        part: event.paymentIntentId === state.remainderPaymentIntentId ? 'remainder' : 'deposit',
        reason: returnReason(state, part, event.paymentIntentId),
      } as const
      return sendBack(state, payment, waited)
    }
    const status: F2fStatus = part === 'deposit' ? 'deposit_paid' : 'remainder_paid'
    return step(enter(state, status, now, { amountHeld: state.amountHeld + event.amount, isPaymentInProgress: false }), [
      ...holdEffects(state.currency, event.amount, part),
      ...notifyBoth(status),
    ])
  },

  // Only news about the payment due now, while it is processing, matters.
  payment_failed: (state, event, actor) => {
    const part = duePart(state)
    return paymentFailed(state, event, actor, part === null ? null : intentOf(state, part))
  },

  // Only the deposit refund of a cancellation is waited for.
  refund_succeeded: (state, event, actor, now) => refundSettled(state, event, actor, now, 'cancelled_with_deposit', 'deposit_refunded'),

  accept_deposit: (state, _event, actor, now) => {
    if (actor.kind !== 'seller') return refuse('not_seller')
    if (state.status === 'deposit_paid') {
      return step(enter(state, 'deposit_accepted', now), [{ type: 'notify', template: 'deposit_accepted', to: 'buyer' }])
    }
    if (beforeDeposit.includes(state.status)) return refuse(depositDue(state))
    // Left: accepted and beyond, or over.
    return refuse(ended(state.status) ?? 'deposit_already_accepted')
  },

  set_price: (state, event, actor, now) => {
    if (actor.kind !== 'seller') return refuse('not_seller')
    if (state.status !== 'deposit_accepted') {
      if (beforeDeposit.includes(state.status)) return refuse(depositDue(state))
      if (state.status === 'deposit_paid') return refuse('deposit_not_accepted')
      if (state.status === 'priced') return refuse('price_already_set')
      if (state.status === 'remainder_skipped') return refuse('remainder_already_skipped')
      // Left: the remainder paid, after the handover, or over.
      return refuse(ended(state.status) ?? 'remainder_already_paid')
    }
    if (
      !Number.isSafeInteger(event.price) ||
      !Number.isSafeInteger(event.charge) ||
      event.charge < 0 ||
      !isChargeCalculatorVersion(event.chargeCalculatorVersion)
    ) {
      return refuse('validation_failed')
    }
    if (event.price - state.price < minimumPrice) return refuse('remainder_too_low')
    // What is withheld from the seller can never exceed the remainder itself.
    if (!Number.isSafeInteger(event.chargeSeller) || event.chargeSeller < 0 || event.chargeSeller > event.price - state.price)
      return refuse('validation_failed')
    const pricing = {
      price: event.price,
      charge: event.charge,
      chargeSeller: event.chargeSeller,
      chargeCalculatorVersion: event.chargeCalculatorVersion,
    }
    // High value is judged on the total (spec §6).
    return step(enter(state, 'priced', now, { pricing, highValue: isHighValue(event.price, state.currency) }), [
      { type: 'notify', template: 'priced', to: 'buyer' },
    ])
  },

  skip_remainder: (state, _event, actor, now) => {
    if (actor.kind !== 'seller') return refuse('not_seller')
    if (state.status === 'deposit_accepted' || state.status === 'priced') {
      // The remainder's payment is on its way: its outcome decides first.
      if (state.isPaymentInProgress) return refuse('payment_in_progress')
      return step(enter(state, 'remainder_skipped', now, { pricing: null, highValue: isHighValue(state.price, state.currency) }), [
        { type: 'notify', template: 'remainder_skipped', to: 'buyer' },
      ])
    }
    if (beforeDeposit.includes(state.status)) return refuse(depositDue(state))
    if (state.status === 'deposit_paid') return refuse('deposit_not_accepted')
    if (state.status === 'remainder_skipped') return refuse('remainder_already_skipped')
    // Left: the remainder paid, after the handover, or over.
    return refuse(ended(state.status) ?? 'remainder_already_paid')
  },

  confirm_handover: (state, _event, actor, now, policy) => {
    if (actor.kind !== 'buyer' && actor.kind !== 'seller') return refuse('forbidden')
    // Where the client hides the seller's step, only the buyer's confirmation counts.
    if (actor.kind === 'seller' && !state.sellerConfirmsHandover) return refuse('not_buyer')
    if (remainderSettled.includes(state.status)) {
      if (actor.kind === 'seller') return startComplaintWindow(state, 'seller_handover_confirmed', now, policy)
      if (!state.sellerConfirmsHandover) return startComplaintWindow(state, 'buyer_handover_confirmed', now, policy)
      return step(enter(state, 'buyer_handover_confirmed', now), [{ type: 'notify', template: 'handover_awaiting_seller', to: 'seller' }])
    }
    if (state.status === 'buyer_handover_confirmed' && actor.kind === 'seller') {
      return startComplaintWindow(state, 'seller_handover_confirmed', now, policy)
    }
    if (afterHandover.includes(state.status)) return refuse('handover_already_confirmed')
    if (beforeDeposit.includes(state.status)) return refuse(depositDue(state))
    // Left: the deposit held and the remainder neither paid nor skipped (deposit_paid, deposit_accepted, priced), or over.
    return refuse(ended(state.status) ?? 'remainder_required')
  },

  release_funds: (state, event, actor, now) => {
    if (actor.kind !== 'admin') return refuse('not_admin')
    if (!adminSettles.includes(state.status)) {
      if (beforeDeposit.includes(state.status)) return refuse(depositDue(state))
      // Left: the release under way (complaint_period_ended), or over.
      return refuse(ended(state.status) ?? 'complaint_period_expired')
    }
    // A payment on its way (the remainder's) must land (or fail) first.
    if (state.isPaymentInProgress) return refuse('payment_in_progress')
    if (event.to !== 'buyer' && event.to !== 'seller') return refuse('validation_failed')
    const extra: Effect[] = isInComplaintWindow(state) ? [{ type: 'cancel_timer', timer: 'complaint_window' }] : []
    return event.to === 'seller' ? releaseToSeller(state, now, extra) : refundEverything(state, now, extra)
  },
}

/** Applies one event; one this kind does not have is refused `not_found` (handler-table.ts). */
export const transitionF2f = machine(handlers)

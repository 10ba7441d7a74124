import { addSeconds, type Effect, enter, isBlank, noop, notRole, otherParty, reached, refuse, step } from './kernel.ts'
import { type OnlineState, onlineTerminalStatuses } from './online-state.ts'
import { holdEffects } from './postings.ts'
import { paymentFailed, refundSettled, sendBack } from './payment-news.ts'
import { awaitsSellerAcceptance } from './listing-sale.ts'
import { chargebackHandlers } from './chargeback.ts'
import { complaintHandlers } from './complaint-window.ts'
import { type HandlerTable, machine, openingHandlers } from './handler-table.ts'
import { cancelByPartner, type CommonEvent, setPaymentMethod } from './shared-handlers.ts'
import {
  ended,
  paidAlready,
  shippedAlready,
  releaseToSeller,
  refundToBuyer,
  cancelWithPayment,
  enterDelivered,
  returnReason,
  notSettleable,
  disputed,
  fullRefund,
} from './online-rules.ts'

/**
 * The online transaction machine (DESIGN §3 "Online states") as a table: one
 * handler per event. Checks run in the order role → state → input, so a
 * client learns the most fundamental reason first. A refusal never carries a
 * next state: the caller must persist nothing.
 */

export type OnlineEvent =
  | CommonEvent
  | { readonly type: 'cancel' }
  /** The buyer opened a payment at the provider (nothing is charged yet). */
  | { readonly type: 'payment_intent_opened'; readonly paymentIntentId: string }
  | { readonly type: 'track'; readonly carrier: string; readonly trackingCode: string }
  | { readonly type: 'submit_order_issue'; readonly description: string }
  /** The carrier's news that the parcel is on its way, with the carrier's own time. */
  | { readonly type: 'carrier_in_transit'; readonly occurredAt: Date }
  | { readonly type: 'carrier_delivered' }
  | { readonly type: 'confirm_delivery' }
  | { readonly type: 'tracking_deadline_elapsed' }
  /** The buyer gives the seller more time to ship (before a case, issue 32). */
  | { readonly type: 'extend_tracking_deadline'; readonly hours: number }
  /** The seller asks the buyer to confirm that the parcel arrived (before a case, issue 32). */
  | { readonly type: 'request_receipt_confirmation' }

export type OnlineEventType = OnlineEvent['type']

/** The most one extension adds: two weeks (the API's limit too). */
const maxExtensionHours = 336

/** A reminder e-mails someone else: at most one a day, so a seller cannot flood the buyer. */
const receiptReminderGapSeconds = 86_400

const handlers: HandlerTable<OnlineState, OnlineEvent> = {
  ...openingHandlers<OnlineState>(),
  ...complaintHandlers<OnlineState>({ isOpen: (state) => state.status === 'delivered', ended, releaseToSeller, refundToBuyer, disputed }),
  ...chargebackHandlers<OnlineState>({ heldRefunds: fullRefund }),

  cancel: (state, _event, actor, now) => {
    if (actor.kind === 'partner') {
      return cancelByPartner(state, now, { paid: ended(state.status) ?? 'already_paid', inProgress: 'payment_in_progress' })
    }
    switch (state.status) {
      case 'created':
        if (actor.kind !== state.creatorRole) return refuse(notRole(state.creatorRole))
        // A listing's buyer withdraws: the seller, already a party, is told.
        return step(
          enter(state, 'cancelled', now),
          awaitsSellerAcceptance(state) ? [{ type: 'notify', template: 'cancelled', to: 'seller' }] : [],
        )
      case 'joined':
        if (actor.kind !== 'buyer' && actor.kind !== 'seller') return refuse('forbidden')
        // Money may already be on its way (SEPA); the outcome decides first.
        if (state.isPaymentInProgress) return refuse('payment_in_progress')
        return step(enter(state, 'cancelled', now), [{ type: 'notify', template: 'cancelled', to: otherParty(actor.kind) }])
      case 'paid':
        // Spec §1: the buyer cannot revoke a payment once authorised.
        if (actor.kind === 'buyer') return refuse('already_paid')
        if (actor.kind !== 'seller') return refuse('not_seller')
        return cancelWithPayment(state, now)
      default:
        if (actor.kind === 'buyer' && paidAlready(state.status) === 'already_paid') return refuse('already_paid')
        // The seller may cancel only until the goods are on their way.
        return refuse(ended(state.status) ?? shippedAlready(state.status) ?? 'already_paid')
    }
  },

  set_payment_method: (state, event, actor) => setPaymentMethod(state, event, actor, (status) => refuse(paidAlready(status))),

  payment_intent_opened: (state, event, actor) => {
    if (actor.kind !== 'buyer') return refuse('not_buyer')
    if (state.status !== 'joined') return refuse(paidAlready(state.status))
    if (state.paymentMethod === null) return refuse('invalid_payment_method')
    if (event.paymentIntentId === '') return refuse('validation_failed')
    if (state.paymentIntentId === event.paymentIntentId) return noop(state)
    // A payment on its way cannot be swapped for another.
    if (state.isPaymentInProgress) return refuse('payment_in_progress')
    return step({ ...state, paymentIntentId: event.paymentIntentId })
  },

  payment_started: (state, event, actor) => {
    if (actor.kind !== 'buyer' && actor.kind !== 'system') return refuse('not_buyer')
    if (state.status !== 'joined') return refuse(paidAlready(state.status))
    if (state.paymentMethod === null) return refuse('invalid_payment_method')
    if (event.paymentIntentId === '') return refuse('validation_failed')
    // Late news that a payment already sent back is processing: nothing is on its way.
    if (state.returnedPaymentIntentIds.includes(event.paymentIntentId)) return noop(state)
    if (state.isPaymentInProgress) {
      // The browser's confirmation and the provider's webhook both report it.
      if (state.paymentIntentId === event.paymentIntentId) return noop(state)
      return refuse('payment_in_progress')
    }
    return step({ ...state, isPaymentInProgress: true, paymentIntentId: event.paymentIntentId })
  },

  payment_succeeded: (state, event, actor, now, policy) => {
    if (actor.kind !== 'system') return refuse('forbidden')
    // confirm_payment and the webhook race; whichever comes second is a no-op.
    if (state.amountHeld > 0 && state.paymentIntentId === event.paymentIntentId) return noop(state)
    // Already sent back: news of it again must not hold money that is gone.
    if (state.returnedPaymentIntentIds.includes(event.paymentIntentId)) return noop(state)
    const holdable = state.status === 'joined' && event.amount === state.price + state.charge
    if (!holdable) {
      // Sent straight back; if it was the payment being processed, that wait is over.
      const waited = state.status === 'joined' && state.isPaymentInProgress && state.paymentIntentId === event.paymentIntentId
      return sendBack(
        state,
        {
          paymentIntentId: event.paymentIntentId,
          amount: event.amount,
          part: 'payment',
          reason: returnReason(state, event.paymentIntentId),
        },
        waited,
      )
    }
    const deadline = addSeconds(now, policy.trackingDeadlineSeconds)
    const next = enter(state, 'paid', now, {
      amountHeld: event.amount,
      paymentIntentId: event.paymentIntentId,
      isPaymentInProgress: false,
      trackingDeadline: deadline,
    })
    return step(next, [
      ...holdEffects(state.currency, event.amount, 'payment'),
      { type: 'schedule', timer: 'tracking_deadline', at: deadline },
      { type: 'notify', template: 'paid', to: 'seller' },
      { type: 'notify', template: 'paid', to: 'buyer' },
    ])
  },

  // Only news about the payment we are waiting for matters.
  payment_failed: (state, event, actor) => paymentFailed(state, event, actor, state.status === 'joined' ? state.paymentIntentId : null),

  refund_succeeded: (state, event, actor, now) => refundSettled(state, event, actor, now, 'cancelled_with_payment', 'payment_refunded'),

  track: (state, event, actor, now) => {
    if (actor.kind !== 'seller') return refuse('not_seller')
    if (state.status !== 'paid') {
      if (state.tracking !== null && !(onlineTerminalStatuses as readonly string[]).includes(state.status))
        return refuse('tracking_already_added')
      return refuse(ended(state.status) ?? 'not_paid')
    }
    if (reached(now, state.trackingDeadline)) return refuse('tracking_details_deadline_expired')
    if (isBlank(event.carrier) || isBlank(event.trackingCode)) return refuse('validation_failed')
    const next = enter(state, 'tracked', now, { tracking: { carrier: event.carrier.trim(), trackingCode: event.trackingCode.trim() } })
    return step(next, [
      { type: 'cancel_timer', timer: 'tracking_deadline' },
      { type: 'notify', template: 'tracked', to: 'buyer' },
    ])
  },

  submit_order_issue: (state, event, actor) => {
    if (actor.kind !== 'buyer') return refuse('not_buyer')
    if (state.status !== 'paid') return refuse(ended(state.status) ?? shippedAlready(state.status) ?? 'not_paid')
    if (isBlank(event.description)) return refuse('empty_complaint_description')
    return step({ ...state, orderIssue: { description: event.description.trim() } }, [
      { type: 'notify', template: 'order_issue', to: 'seller' },
    ])
  },

  carrier_in_transit: (state, event, actor) => {
    if (actor.kind !== 'system') return refuse('forbidden')
    // Only the first report counts, and only while the parcel is on its way:
    // news that comes after the delivery adds nothing to the history.
    if (state.status !== 'tracked' || state.inTransit !== null) return noop(state)
    // A parcel scanned before the seller typed the code still reads after "tracking added".
    const tracked = state.timestamps.tracked
    const at = tracked !== null && event.occurredAt < tracked ? tracked : event.occurredAt
    return step({ ...state, inTransit: at })
  },

  carrier_delivered: (state, _event, actor, now, policy) => {
    if (actor.kind !== 'system') return refuse('forbidden')
    // Carriers repeat themselves and may report after the buyer confirmed.
    if (state.status !== 'tracked') return noop(state)
    return enterDelivered(state, now, policy)
  },

  confirm_delivery: (state, _event, actor, now, policy) => {
    if (actor.kind !== 'buyer' && actor.kind !== 'admin') return refuse('not_buyer')
    if (state.status === 'tracked') return enterDelivered(state, now, policy)
    if (state.status === 'delivered' || state.status === 'complained' || state.status === 'complaint_period_ended') {
      return refuse('delivery_already_set')
    }
    return refuse(ended(state.status) ?? 'tracking_not_added')
  },

  release_funds: (state, event, actor, now) => {
    if (actor.kind !== 'admin') return refuse('not_admin')
    if (state.status !== 'complained' && state.status !== 'delivered' && state.status !== 'tracked')
      return refuse(notSettleable(state.status))
    if (event.to !== 'buyer' && event.to !== 'seller') return refuse('validation_failed')
    const extra: Effect[] = state.status === 'delivered' ? [{ type: 'cancel_timer', timer: 'complaint_window' }] : []
    return event.to === 'seller' ? releaseToSeller(state, now, extra) : refundToBuyer(state, now, extra)
  },

  extend_tracking_deadline: (state, event, actor, now) => {
    if (actor.kind !== 'buyer') return refuse('not_buyer')
    if (state.status !== 'paid') return refuse(ended(state.status) ?? shippedAlready(state.status) ?? 'not_paid')
    if (reached(now, state.trackingDeadline)) return refuse('tracking_details_deadline_expired')
    if (!Number.isSafeInteger(event.hours) || event.hours < 1 || event.hours > maxExtensionHours) return refuse('validation_failed')
    const deadline = addSeconds(state.trackingDeadline ?? now, event.hours * 3600)
    return step({ ...state, trackingDeadline: deadline }, [
      { type: 'schedule', timer: 'tracking_deadline', at: deadline },
      { type: 'notify', template: 'tracking_deadline_extended', to: 'seller' },
      { type: 'notify', template: 'tracking_deadline_extended', to: 'buyer' },
    ])
  },

  request_receipt_confirmation: (state, _event, actor, now) => {
    if (actor.kind !== 'seller') return refuse('not_seller')
    // Only once the parcel is on its way and until the buyer has spoken (confirmed, released or complained).
    if (state.status === 'paid') return refuse('tracking_not_added')
    if (state.status === 'complained') return refuse('already_complained')
    if (state.status !== 'tracked' && state.status !== 'delivered') return refuse(ended(state.status) ?? 'delivery_already_set')
    const last = state.receiptConfirmationRequestedAt
    if (last !== null && !reached(now, addSeconds(last, receiptReminderGapSeconds)))
      return refuse('receipt_confirmation_requested_recently')
    return step({ ...state, receiptConfirmationRequestedAt: now }, [
      { type: 'notify', template: 'receipt_confirmation_requested', to: 'buyer' },
    ])
  },

  tracking_deadline_elapsed: (state, _event, actor, now) => {
    if (actor.kind !== 'system') return refuse('forbidden')
    if (state.status !== 'paid') return noop(state)
    if (state.trackingDeadline !== null && !reached(now, state.trackingDeadline)) {
      return noop(state, [{ type: 'schedule', timer: 'tracking_deadline', at: state.trackingDeadline }])
    }
    return cancelWithPayment(state, now)
  },
}

/** Applies one event; one this kind does not have is refused `not_found` (handler-table.ts). */
export const transitionOnline = machine(handlers)

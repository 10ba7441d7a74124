import type { CurrencyCode, PaymentMethod } from '@pactum/domain/currencies'
import type { OnlineState, OnlineStatus, Party } from '@pactum/domain/online-transaction'
import type { Updateable } from 'kysely'
import type { TransactionsTable } from '../db/schema.ts'
import type { TransactionRow } from './transaction-view.ts'

/** The stored row as the state machine sees it. */
export function toOnlineState(row: TransactionRow): OnlineState {
  return {
    status: row.status as OnlineStatus,
    creatorRole: row.creator_role as Party,
    price: row.price,
    currency: row.currency as CurrencyCode,
    charge: row.charge,
    chargeSeller: row.charge_seller,
    chargeCalculatorVersion: row.charge_calculator_version,
    paymentMethod: row.payment_method as PaymentMethod | null,
    isPaymentInProgress: row.is_payment_in_progress,
    paymentIntentId: row.payment_intent_id,
    tracking: row.tracking_carrier && row.tracking_code ? { carrier: row.tracking_carrier, trackingCode: row.tracking_code } : null,
    orderIssue: row.order_issue_description ? { description: row.order_issue_description } : null,
    complaint: row.complaint_description ? { description: row.complaint_description } : null,
    trackingDeadline: row.tracking_deadline,
    complaintPeriodDeadline: row.complaint_period_deadline,
    amountHeld: row.amount_held,
    amountReleased: row.amount_released,
    amountRefunded: row.amount_refunded,
    timestamps: {
      created: row.created,
      joined: row.joined,
      paid: row.paid,
      tracked: row.tracked,
      delivered: row.delivered,
      complained: row.complained,
      complaint_period_ended: row.complaint_period_ended,
      funds_released: row.funds_released,
      cancelled: row.cancelled,
      rejected: row.rejected,
      cancelled_with_payment: row.cancelled_with_payment,
      payment_refunded: row.payment_refunded,
    },
  }
}

/** The columns a new state writes back. */
export function fromOnlineState(state: OnlineState): Updateable<TransactionsTable> {
  return {
    status: state.status,
    price: state.price,
    currency: state.currency,
    charge: state.charge,
    charge_seller: state.chargeSeller,
    charge_calculator_version: state.chargeCalculatorVersion,
    payment_method: state.paymentMethod,
    is_payment_in_progress: state.isPaymentInProgress,
    payment_intent_id: state.paymentIntentId,
    tracking_carrier: state.tracking?.carrier ?? null,
    tracking_code: state.tracking?.trackingCode ?? null,
    order_issue_description: state.orderIssue?.description ?? null,
    complaint_description: state.complaint?.description ?? null,
    tracking_deadline: state.trackingDeadline,
    complaint_period_deadline: state.complaintPeriodDeadline,
    amount_held: state.amountHeld,
    amount_released: state.amountReleased,
    amount_refunded: state.amountRefunded,
    ...state.timestamps,
    created: state.timestamps.created ?? undefined,
  }
}

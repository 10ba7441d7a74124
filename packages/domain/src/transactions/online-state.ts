import type { CommonState } from './kernel.ts'
import { createdState, type NewTransaction } from './new-transaction.ts'

/** The online kind's states (DESIGN §3 "Online states"). */
export const onlineStatuses = [
  'created',
  'joined',
  'paid',
  'tracked',
  'delivered',
  'complained',
  'complaint_period_ended',
  'funds_released',
  'cancelled',
  'rejected',
  'cancelled_with_payment',
  'payment_refunded',
] as const
export type OnlineStatus = (typeof onlineStatuses)[number]

export const onlineTerminalStatuses = [
  'rejected',
  'cancelled',
  'funds_released',
  'payment_refunded',
] as const satisfies readonly OnlineStatus[]

export interface OnlineState extends CommonState<OnlineStatus> {
  readonly kind: 'online'
  readonly tracking: { readonly carrier: string; readonly trackingCode: string } | null
  readonly orderIssue: { readonly description: string } | null
  readonly trackingDeadline: Date | null
  /** When the carrier first reported the parcel on its way: a step of the history, not a state. */
  readonly inTransit: Date | null
  /** When the seller last asked the buyer to confirm receipt: one reminder a day at most. */
  readonly receiptConfirmationRequestedAt: Date | null
}

export interface NewOnlineTransaction extends NewTransaction {
  readonly price: number
  readonly charge: number
  readonly chargeSeller?: number
}

/**
 * The state of a transaction just created. The price and charge are expected
 * to have been validated with fees.ts (`quoteCharge`, `checkShownCharge`).
 */
export function createOnlineTransaction(input: NewOnlineTransaction, now: Date): OnlineState {
  const terms = { price: input.price, charge: input.charge, chargeSeller: input.chargeSeller ?? 0 }
  return {
    kind: 'online',
    ...createdState(input, terms, onlineStatuses, now),
    tracking: null,
    orderIssue: null,
    trackingDeadline: null,
    inTransit: null,
    receiptConfirmationRequestedAt: null,
  }
}

import type { CurrencyCode, PaymentMethod } from '../currencies.ts'
import { isHighValue } from '../high-value.ts'
import type { CommonState, Party } from './kernel.ts'

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

export const onlineTerminalStatuses = ['rejected', 'cancelled', 'funds_released', 'payment_refunded'] as const satisfies readonly OnlineStatus[]

export interface OnlineState extends CommonState<OnlineStatus> {
  readonly kind: 'online'
  readonly tracking: { readonly carrier: string; readonly trackingCode: string } | null
  readonly orderIssue: { readonly description: string } | null
  readonly trackingDeadline: Date | null
  /** When the carrier first reported the parcel on its way: a step of the history, not a state. */
  readonly inTransit: Date | null
}

export interface NewOnlineTransaction {
  readonly creatorRole: Party
  /** Null for a partner client's transaction, whose parties both come by claim link. */
  readonly creatorId: string | null
  /** Null for a guest transaction: only its claim link lets the other party in. */
  readonly joinCode: string | null
  readonly description?: string
  readonly price: number
  readonly currency: CurrencyCode
  readonly charge: number
  readonly chargeSeller?: number
  readonly chargeCalculatorVersion: number
  readonly paymentMethod?: PaymentMethod | null
}

const noTimestamps: OnlineState['timestamps'] = {
  created: null,
  joined: null,
  paid: null,
  tracked: null,
  delivered: null,
  complained: null,
  complaint_period_ended: null,
  funds_released: null,
  cancelled: null,
  rejected: null,
  cancelled_with_payment: null,
  payment_refunded: null,
}

/**
 * The state of a transaction just created. The price and charge are expected
 * to have been validated with fees.ts (`quoteCharge`, `checkShownCharge`).
 */
export function createOnlineTransaction(input: NewOnlineTransaction, now: Date): OnlineState {
  return {
    kind: 'online',
    status: 'created',
    creatorRole: input.creatorRole,
    buyerId: input.creatorRole === 'buyer' ? input.creatorId : null,
    sellerId: input.creatorRole === 'seller' ? input.creatorId : null,
    joinCode: input.joinCode,
    joinedWithCode: null,
    description: input.description ?? '',
    price: input.price,
    currency: input.currency,
    charge: input.charge,
    chargeSeller: input.chargeSeller ?? 0,
    chargeCalculatorVersion: input.chargeCalculatorVersion,
    paymentMethod: input.paymentMethod ?? null,
    highValue: isHighValue(input.price, input.currency),
    isPaymentInProgress: false,
    paymentIntentId: null,
    tracking: null,
    orderIssue: null,
    complaint: null,
    trackingDeadline: null,
    inTransit: null,
    complaintPeriodDeadline: null,
    amountHeld: 0,
    amountReleased: 0,
    amountRefunded: 0,
    returnedPaymentIntentIds: [],
    timestamps: { ...noTimestamps, created: now },
  }
}

import type { CurrencyCode, PaymentMethod } from '../currencies.ts'
import { isHighValue } from '../high-value.ts'
import type { CommonState, Party } from './kernel.ts'

/** The face-to-face kind's states (DESIGN §3 "Face-to-face states"). */
export const f2fStatuses = [
  'created',
  'joined',
  'deposit_paid',
  'deposit_accepted',
  'priced',
  'remainder_paid',
  'remainder_skipped',
  'seller_handover_confirmed',
  'buyer_handover_confirmed',
  'complained',
  'complaint_period_ended',
  'funds_released',
  'cancelled',
  'rejected',
  'cancelled_with_deposit',
  'deposit_refunded',
  'payment_refunded',
] as const
export type F2fStatus = (typeof f2fStatuses)[number]

export const f2fTerminalStatuses = [
  'rejected',
  'cancelled',
  'funds_released',
  'payment_refunded',
  'deposit_refunded',
] as const satisfies readonly F2fStatus[]

/** The remainder's terms as the seller set them: the total price and the fee on what is left to pay. */
export interface RemainderPricing {
  /** The whole price, deposit included. */
  readonly price: number
  /** The buyer's fee on the remainder (price − deposit). */
  readonly charge: number
  readonly chargeSeller: number
  readonly chargeCalculatorVersion: number
}

/**
 * A face-to-face sale: the common fields' `price`, `charge`, `chargeSeller`,
 * `paymentMethod` and `paymentIntentId` are the deposit's; the remainder has
 * its own pricing and payment, paid with the deposit's method.
 */
export interface F2fState extends CommonState<F2fStatus> {
  readonly kind: 'f2f'
  readonly pricing: RemainderPricing | null
  readonly remainderPaymentIntentId: string | null
  /**
   * From the client the sale was made under (`showSellerConfirmHandover`):
   * when false, the seller has no handover step and the buyer's confirmation
   * starts the complaint window.
   */
  readonly sellerConfirmsHandover: boolean
  readonly cancellation: { readonly description: string } | null
}

export interface NewF2fTransaction {
  readonly creatorRole: Party
  /** Null for a partner client's transaction, whose parties both come by claim link. */
  readonly creatorId: string | null
  /** Null for a guest transaction: only its claim link lets the other party in. */
  readonly joinCode: string | null
  readonly description?: string
  readonly currency: CurrencyCode
  readonly depositPrice: number
  readonly depositCharge: number
  readonly depositChargeSeller?: number
  readonly chargeCalculatorVersion: number
  readonly paymentMethod?: PaymentMethod | null
  readonly sellerConfirmsHandover?: boolean
}

const noTimestamps: F2fState['timestamps'] = {
  created: null,
  joined: null,
  deposit_paid: null,
  deposit_accepted: null,
  priced: null,
  remainder_paid: null,
  remainder_skipped: null,
  seller_handover_confirmed: null,
  buyer_handover_confirmed: null,
  complained: null,
  complaint_period_ended: null,
  funds_released: null,
  cancelled: null,
  rejected: null,
  cancelled_with_deposit: null,
  deposit_refunded: null,
  payment_refunded: null,
}

/** A face-to-face sale just created with its deposit priced (fees.ts); the total comes later. */
export function createF2fTransaction(input: NewF2fTransaction, now: Date): F2fState {
  return {
    kind: 'f2f',
    status: 'created',
    creatorRole: input.creatorRole,
    buyerId: input.creatorRole === 'buyer' ? input.creatorId : null,
    sellerId: input.creatorRole === 'seller' ? input.creatorId : null,
    joinCode: input.joinCode,
    joinedWithCode: null,
    description: input.description ?? '',
    currency: input.currency,
    price: input.depositPrice,
    charge: input.depositCharge,
    chargeSeller: input.depositChargeSeller ?? 0,
    chargeCalculatorVersion: input.chargeCalculatorVersion,
    paymentMethod: input.paymentMethod ?? null,
    highValue: isHighValue(input.depositPrice, input.currency),
    isPaymentInProgress: false,
    paymentIntentId: null,
    complaint: null,
    complaintPeriodDeadline: null,
    amountHeld: 0,
    amountReleased: 0,
    amountRefunded: 0,
    returnedPaymentIntentIds: [],
    pricing: null,
    remainderPaymentIntentId: null,
    sellerConfirmsHandover: input.sellerConfirmsHandover ?? true,
    cancellation: null,
    timestamps: { ...noTimestamps, created: now },
  }
}

/** What the buyer pays for the deposit: its price and fee. */
export function depositAmount(state: F2fState): number {
  return state.price + state.charge
}

/** What the buyer pays for the remainder: the rest of the price and its fee; 0 while not priced. */
export function remainderAmount(state: F2fState): number {
  return state.pricing ? state.pricing.price - state.price + state.pricing.charge : 0
}

/**
 * The state in which the 24 h complaint window runs: after the seller's
 * handover confirmation, or the buyer's where the seller has no such step.
 */
export function isInComplaintWindow(state: F2fState): boolean {
  return state.status === 'seller_handover_confirmed' || (state.status === 'buyer_handover_confirmed' && !state.sellerConfirmsHandover)
}

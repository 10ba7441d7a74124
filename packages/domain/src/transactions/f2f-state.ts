import type { CommonState } from './kernel.ts'
import { createdState, type NewTransaction } from './new-transaction.ts'

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

export interface NewF2fTransaction extends NewTransaction {
  readonly depositPrice: number
  readonly depositCharge: number
  readonly depositChargeSeller?: number
  readonly sellerConfirmsHandover?: boolean
}

/** A face-to-face sale just created with its deposit priced (fees.ts); the total comes later. */
export function createF2fTransaction(input: NewF2fTransaction, now: Date): F2fState {
  const deposit = { price: input.depositPrice, charge: input.depositCharge, chargeSeller: input.depositChargeSeller ?? 0 }
  return {
    kind: 'f2f',
    ...createdState(input, deposit, f2fStatuses, now),
    pricing: null,
    remainderPaymentIntentId: null,
    sellerConfirmsHandover: input.sellerConfirmsHandover ?? true,
    cancellation: null,
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

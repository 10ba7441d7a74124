import type { CurrencyCode, PaymentMethod } from '../currencies.ts'
import { isHighValue } from '../high-value.ts'
import type { CommonState, Party } from './kernel.ts'

/**
 * A transaction just created, as far as every kind is alike: in `created`,
 * stamped at that moment, nobody paid, nothing held. Each kind adds its own
 * terms' names (online: the price; face-to-face: the deposit) and fields.
 */

export interface NewTransaction {
  readonly creatorRole: Party
  /** Null for a partner client's transaction, whose parties both come by claim link. */
  readonly creatorId: string | null
  /** Null for a guest transaction: only its claim link lets the other party in. */
  readonly joinCode: string | null
  readonly description?: string
  readonly currency: CurrencyCode
  readonly chargeCalculatorVersion: number
  readonly paymentMethod?: PaymentMethod | null
}

/** The first terms, priced by the caller with fees.ts; high value is judged on this price. */
export interface FirstTerms {
  readonly price: number
  readonly charge: number
  readonly chargeSeller: number
}

export function createdState<Status extends string>(
  input: NewTransaction,
  terms: FirstTerms,
  statuses: readonly Status[],
  now: Date,
): CommonState<Status> {
  const timestamps = Object.fromEntries(
    statuses.map((status) => [status, status === 'created' ? now : null]),
  ) as CommonState<Status>['timestamps']
  return {
    status: 'created' as Status,
    creatorRole: input.creatorRole,
    buyerId: input.creatorRole === 'buyer' ? input.creatorId : null,
    sellerId: input.creatorRole === 'seller' ? input.creatorId : null,
    joinCode: input.joinCode,
    joinedWithCode: null,
    description: input.description ?? '',
    currency: input.currency,
    price: terms.price,
    charge: terms.charge,
    chargeSeller: terms.chargeSeller,
    chargeCalculatorVersion: input.chargeCalculatorVersion,
    paymentMethod: input.paymentMethod ?? null,
    highValue: isHighValue(terms.price, input.currency),
    isPaymentInProgress: false,
    paymentIntentId: null,
    complaint: null,
    complaintPeriodDeadline: null,
    amountHeld: 0,
    amountReleased: 0,
    amountRefunded: 0,
    returnedPaymentIntentIds: [],
    chargeback: null,
    fraudWarning: null,
    timestamps,
  }
}

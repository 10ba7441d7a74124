import type { PayoutState } from '@pactum/domain/payouts'

/**
 * A seller payout's news from the payment provider: a Connect event about a
 * payout on a connected account (`payout.*` with the event's `account`),
 * reduced to what Pactum follows (reduce-payout-event.ts).
 */
export interface PayoutEvent {
  kind: 'payout'
  /** The provider's event id (unique per provider). */
  eventId: string
  provider: 'sandbox' | 'stripe'
  /** When the provider made the event: the order that counts. */
  occurredAt: Date
  /** The connected account the payout left. */
  accountId: string
  payoutId: string
  status: PayoutState
  /** Minor units. */
  amount: number
  currency: string
  arrivalDate: Date | null
  failureCode: string | null
  failureMessage: string | null
  /** Made by the provider's payout schedule (true) or asked for by the platform. */
  automatic: boolean
  /** The payout's own `created`. */
  created: Date
}

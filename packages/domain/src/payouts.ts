/**
 * A seller's payout as Pactum follows it (decision 110): the provider's
 * Connect events (`payout.created`, `.updated`, `.paid`, `.failed`,
 * `.canceled`) arrive late, twice or out of order, and each carries the
 * payout as it was when the event was made. Pure: the caller reads the
 * stored payout and writes back what this answers.
 *
 * A status only moves forward: pending → in transit → paid, and from any
 * of those to failed or cancelled. Paid is not the end: Stripe documents
 * that a payout can show as paid and turn failed days later, when the bank
 * returns the money ("Payouts: failed payouts"). Failed and cancelled are
 * the end; nothing moves a payout out of them. Within one status a later
 * event (by the provider's `created`) may still change the facts, e.g. a
 * new expected arrival date.
 */

export const payoutStates = ['pending', 'in_transit', 'paid', 'failed', 'canceled'] as const
export type PayoutState = (typeof payoutStates)[number]

export interface PayoutFacts {
  status: PayoutState
  /** Minor units. */
  amount: number
  currency: string
  /** When the bank is expected to have it (or had it); null when the provider gives none. */
  arrivalDate: Date | null
  /** The provider's code for why the bank refused it (`account_closed`, `no_account`, …). */
  failureCode: string | null
  failureMessage: string | null
}

/** The payout as one event showed it. */
export interface PayoutObservation extends PayoutFacts {
  eventId: string
  /** The provider's `created` of the event: the order that counts, not the order of arrival. */
  occurredAt: Date
}

/** The payout as Pactum keeps it. */
export interface FollowedPayout extends PayoutFacts {
  lastEventId: string
  lastEventAt: Date
}

export type PayoutStep =
  | { kind: 'ignored'; why: 'duplicate' | 'final' | 'older' }
  | {
      kind: 'recorded'
      next: FollowedPayout
      /** The payout failed with this event (not before): the seller is told once. */ failedNow: boolean
    }

const rank: Record<PayoutState, number> = { pending: 0, in_transit: 1, paid: 2, failed: 3, canceled: 3 }

export function isFinalPayoutState(status: PayoutState): boolean {
  return status === 'failed' || status === 'canceled'
}

export function followPayout(current: FollowedPayout | null, seen: PayoutObservation): PayoutStep {
  const next: FollowedPayout = {
    status: seen.status,
    amount: seen.amount,
    currency: seen.currency,
    arrivalDate: seen.arrivalDate,
    failureCode: seen.failureCode,
    failureMessage: seen.failureMessage,
    lastEventId: seen.eventId,
    lastEventAt: seen.occurredAt,
  }
  if (!current) return { kind: 'recorded', next, failedNow: seen.status === 'failed' }
  if (current.lastEventId === seen.eventId) return { kind: 'ignored', why: 'duplicate' }
  if (isFinalPayoutState(current.status)) return { kind: 'ignored', why: 'final' }
  const forward = rank[seen.status] - rank[current.status]
  if (forward < 0) return { kind: 'ignored', why: 'older' }
  if (forward === 0 && seen.occurredAt.getTime() < current.lastEventAt.getTime()) return { kind: 'ignored', why: 'older' }
  return { kind: 'recorded', next, failedNow: seen.status === 'failed' }
}

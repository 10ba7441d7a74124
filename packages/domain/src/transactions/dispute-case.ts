import type { Party } from './kernel.ts'

/**
 * A complaint opens a case (issue 32): the buyer's reason and description,
 * the seller's response window, the settlement offers the parties make each
 * other, and the moment it went to an admin. The case lives in the
 * transaction's state, so the one writer changes it with everything else and
 * the property tests see it; the conversation and evidence beside it are
 * records of their own (modules/disputes on the server).
 */

export const complaintReasons = ['not_received', 'not_as_described', 'damaged', 'other'] as const
export type ComplaintReason = (typeof complaintReasons)[number]

export function isComplaintReason(value: unknown): value is ComplaintReason {
  return (complaintReasons as readonly unknown[]).includes(value)
}

/** How the price is split: both parts in minor units of the sale's currency, summing to the price in dispute. */
export interface Split {
  readonly refundToBuyer: number
  readonly releaseToSeller: number
}

/**
 * `open` until the other party answers; `replaced` by a newer offer (from
 * either side: one open offer at a time); `lapsed` when the case was settled
 * another way (an admin's decision, a full refund) while it was open.
 */
export type OfferOutcome = 'open' | 'accepted' | 'declined' | 'replaced' | 'lapsed'

export interface SettlementOffer extends Split {
  /** Chosen by the caller (a UUID): the answer names the offer it answers, so it can never accept a newer one. */
  readonly id: string
  readonly by: Party
  readonly note: string
  readonly madeAt: Date
  readonly outcome: OfferOutcome
  readonly answeredAt: Date | null
}

export interface Complaint {
  readonly description: string
  readonly reason: ComplaintReason
  /** Until then the seller answers and the parties may settle alone; then the case goes to an admin. Null on cases opened before issue 32. */
  readonly responseDeadline: Date | null
  /** When the case went to the admins' queue: a party asked, or the response window ended without agreement. */
  readonly escalatedAt: Date | null
  /** Every offer made, oldest first; at most one `open`. */
  readonly offers: readonly SettlementOffer[]
}

export function openOffer(complaint: Complaint | null): SettlementOffer | null {
  return complaint?.offers.find((offer) => offer.outcome === 'open') ?? null
}

/** The offers with the open one, if any, closed as `outcome`. */
export function closeOpenOffer(complaint: Complaint, outcome: Exclude<OfferOutcome, 'open'>, now: Date): SettlementOffer[] {
  return complaint.offers.map((offer) => (offer.outcome === 'open' ? { ...offer, outcome, answeredAt: now } : offer))
}

/** Both parts whole, not negative, and together the price in dispute. */
export function isSplitOf(split: Split, price: number): boolean {
  const { refundToBuyer, releaseToSeller } = split
  return (
    Number.isSafeInteger(refundToBuyer) &&
    Number.isSafeInteger(releaseToSeller) &&
    refundToBuyer >= 0 &&
    releaseToSeller >= 0 &&
    refundToBuyer + releaseToSeller === price
  )
}

const dayMs = 86_400_000

/**
 * The terms' promises once a complaint is made: a summary within 3 business
 * days (Monday to Friday, counted in UTC; public holidays differ by country
 * and are not counted out) and a final answer within 8 weeks.
 */
export function caseDeadlines(openedAt: Date): { readonly summaryDue: Date; readonly finalAnswerDue: Date } {
  let summaryDue = openedAt
  for (let counted = 0; counted < 3;) {
    summaryDue = new Date(summaryDue.getTime() + dayMs)
    const weekday = summaryDue.getUTCDay()
    if (weekday !== 0 && weekday !== 6) counted += 1
  }
  return { summaryDue, finalAnswerDue: new Date(openedAt.getTime() + 56 * dayMs) }
}

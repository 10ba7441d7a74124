/**
 * What the public verification page says of a sale's money (issue 35 item 4,
 * docs/decisions/114-escrow-you-can-check.md): one short state for anyone to
 * read, derived here once from the status and the escrow's amounts. Apart
 * from the state machines, like statuses.ts, so that the web app can name
 * the states without loading them.
 */
export const escrowStates = ['awaiting_payment', 'held', 'released', 'refunded', 'cancelled'] as const
export type EscrowState = (typeof escrowStates)[number]

/** What the standing is read from: the stored transaction's status, amounts and step times. */
export interface EscrowFacts {
  readonly kind: 'online' | 'f2f'
  readonly status: string
  /** Online, the price; face to face, the deposit (what is paid first). */
  readonly price: number
  readonly charge: number
  readonly amountHeld: number
  readonly amountReleased: number
  readonly amountRefunded: number
  readonly timestamps: Readonly<Record<string, Date | null | undefined>>
}

export interface EscrowStanding {
  readonly state: EscrowState
  /**
   * Held, released or refunded: what the buyer's payments put into escrow.
   * Awaiting payment or cancelled before it: what the buyer is (was) to pay
   * into it first, the price (face to face, the deposit) and the buyer's fee.
   */
  readonly amount: number
  readonly paid: Date | null
  readonly released: Date | null
  readonly refunded: Date | null
}

/** The steps at which held money went back to the buyer: the refund is decided there, and paid out from there. */
const refundSteps = ['cancelled_with_payment', 'cancelled_with_deposit', 'payment_refunded', 'deposit_refunded'] as const
const cancelledBeforePayment = ['cancelled', 'rejected']

export function escrowStandingOf(facts: EscrowFacts): EscrowStanding {
  const at = (step: string): Date | null => facts.timestamps[step] ?? null
  const refunded = earliest(refundSteps.map(at))
  const released = at('funds_released')
  const paid = at(facts.kind === 'f2f' ? 'deposit_paid' : 'paid')
  const standing = { paid, released: null, refunded: null }
  const paidIn = facts.amountHeld > 0
  if (!paidIn) {
    const state = cancelledBeforePayment.includes(facts.status) ? 'cancelled' : 'awaiting_payment'
    return { ...standing, state, amount: facts.price + facts.charge }
  }
  // A split settlement releases part and refunds the rest: it is released if the seller got anything.
  if (facts.status === 'funds_released' && (facts.amountReleased > 0 || facts.amountRefunded === 0))
    return { ...standing, state: 'released', amount: facts.amountHeld, released }
  if (refunded !== null || facts.status === 'funds_released')
    return { ...standing, state: 'refunded', amount: facts.amountHeld, refunded: refunded ?? released }
  return { ...standing, state: 'held', amount: facts.amountHeld }
}

function earliest(dates: readonly (Date | null)[]): Date | null {
  return dates.reduce<Date | null>((first, date) => (date !== null && (first === null || date < first) ? date : first), null)
}

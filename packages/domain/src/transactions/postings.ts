import type { CurrencyCode } from '../currencies.ts'
import type { CommonState, Effect, HoldPart, ReturnReason, StatePosting } from './kernel.ts'

/**
 * The money movements of both machines (DESIGN §2 "Ledger"): a payment that
 * succeeds holds (buyer funding → escrow), a release posts (escrow → seller,
 * → revenue), a refund voids (escrow → buyer refund, and → revenue for a fee
 * the buyer does not get back). Each returns the ledger entry together with
 * the provider call that makes it real, so the two can never drift apart.
 */

export function holdEffects(currency: CurrencyCode, amount: number, part: HoldPart): Effect[] {
  return [
    {
      type: 'ledger',
      entry: 'hold',
      part,
      postings: [
        { account: 'buyer_funding', amount: -amount, currency },
        { account: 'escrow', amount, currency },
      ],
    },
  ]
}

/** Everything held leaves escrow: `payout` to the seller, the rest (the fees) to revenue. */
export function releaseEffects(input: {
  currency: CurrencyCode
  held: number
  payout: number
  sourcePaymentIntentId: string | null
}): Effect[] {
  const { currency, held, payout } = input
  const postings: StatePosting[] = [{ account: 'escrow', amount: -held, currency }]
  if (payout !== 0) postings.push({ account: 'seller', amount: payout, currency })
  if (held - payout !== 0) postings.push({ account: 'revenue', amount: held - payout, currency })
  return [{ type: 'ledger', entry: 'release', postings }, transferEffect(currency, payout, input.sourcePaymentIntentId)]
}

function transferEffect(currency: CurrencyCode, payout: number, sourcePaymentIntentId: string | null): Effect {
  // A transaction is transferred at most once.
  return {
    type: 'provider',
    action: 'transfer',
    amount: payout,
    currency,
    idempotencyAction: 'transfer',
    paymentIntentId: sourcePaymentIntentId,
  }
}

/**
 * A case settled or decided on a split (issue 32): everything held leaves
 * escrow in one entry that resolves the hold once, the refunds' part to the
 * buyer, `payout` to the seller and the rest (the fees kept) to revenue, with
 * the provider's refunds and the transfer that make it real.
 */
export function splitEffects(input: {
  currency: CurrencyCode
  held: number
  payout: number
  refunds: readonly RefundCall[]
  sourcePaymentIntentId: string | null
}): Effect[] {
  const { currency, held, payout } = input
  const refunded = input.refunds.reduce((sum, refund) => sum + refund.amount, 0)
  const postings: StatePosting[] = [
    { account: 'escrow', amount: -held, currency },
    { account: 'buyer_refund', amount: refunded, currency },
    { account: 'seller', amount: payout, currency },
  ]
  if (held - refunded - payout !== 0) postings.push({ account: 'revenue', amount: held - refunded - payout, currency })
  return [
    { type: 'ledger', entry: 'split', postings },
    ...refundCallEffects(currency, input.refunds),
    transferEffect(currency, payout, input.sourcePaymentIntentId),
  ]
}

export interface RefundCall {
  readonly paymentIntentId: string | null
  readonly amount: number
  /** Names this refund among the transaction's movements (`refund`, `refund:deposit`, …). */
  readonly idempotencyAction: string
}

/**
 * Everything held leaves escrow: what `refunds` return goes to the buyer, and
 * whatever is kept (a face-to-face deposit's fee) to revenue. One provider
 * refund per payment, since a refund goes back to the payment it came from.
 */
export function refundEffects(input: { currency: CurrencyCode; held: number; refunds: readonly RefundCall[] }): Effect[] {
  const { currency, held } = input
  const refunded = input.refunds.reduce((sum, refund) => sum + refund.amount, 0)
  const postings: StatePosting[] = [
    { account: 'escrow', amount: -held, currency },
    { account: 'buyer_refund', amount: refunded, currency },
  ]
  if (held - refunded !== 0) postings.push({ account: 'revenue', amount: held - refunded, currency })
  return [{ type: 'ledger', entry: 'refund', postings }, ...refundCallEffects(currency, input.refunds)]
}

/** One provider refund per call with something to send back. */
export function refundCallEffects(currency: CurrencyCode, refunds: readonly RefundCall[]): Effect[] {
  return refunds
    .filter((refund) => refund.amount > 0)
    .map((refund) => ({
      type: 'provider',
      action: 'refund',
      amount: refund.amount,
      currency,
      idempotencyAction: refund.idempotencyAction,
      paymentIntentId: refund.paymentIntentId,
    }))
}

/**
 * Money arrived that the transaction will not hold (cancelled meanwhile, a
 * second payment, a wrong amount): it goes straight back without entering
 * escrow, and the sale shows it (docs/decisions/007-every-refund-is-on-the-sale.md "Every refund is on the
 * sale"): `amountRefunded` grows by it, the ledger records it (buyer funding
 * → buyer refund, resolving no hold), the history names it with why, and the
 * buyer is told. The provider refund is keyed by the payment, and the
 * payment is remembered, so that the webhook and the browser's confirmation
 * reporting it both cause one refund and one record. Nothing to send back
 * for a zero amount.
 */
export function returnUnheld<S extends CommonState<string>>(
  state: S,
  input: { paymentIntentId: string; amount: number; part: HoldPart; reason: ReturnReason },
): { next: S; effects: Effect[] } {
  const { paymentIntentId, amount, part, reason } = input
  if (amount <= 0 || state.returnedPaymentIntentIds.includes(paymentIntentId)) return { next: state, effects: [] }
  const refund: Effect = {
    type: 'provider',
    action: 'refund',
    amount,
    currency: state.currency,
    idempotencyAction: `refund-unheld:${paymentIntentId}`,
    paymentIntentId,
  }
  // Only a buyer can have paid; without one there is no account to record it on.
  if (state.buyerId === null) return { next: state, effects: [refund] }
  const next: S = {
    ...state,
    amountRefunded: state.amountRefunded + amount,
    returnedPaymentIntentIds: [...state.returnedPaymentIntentIds, paymentIntentId],
  }
  return {
    next,
    effects: [
      {
        type: 'ledger',
        entry: 'refund_unheld',
        part,
        reason,
        postings: [
          { account: 'buyer_funding', amount: -amount, currency: state.currency },
          { account: 'buyer_refund', amount, currency: state.currency },
        ],
      },
      refund,
      { type: 'history', event: 'refund_unheld', reason },
      { type: 'notify', template: 'payment_returned', to: 'buyer', returned: { amount, reason } },
    ],
  }
}

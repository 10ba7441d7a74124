import { closeOpenOffer, type Split } from './dispute-case.ts'
import { type CommonState, type Effect, enter, type NotifyTemplate, notifyBoth, type Result, step } from './kernel.ts'
import { type RefundCall, refundEffects, releaseEffects, splitEffects } from './postings.ts'

/**
 * The two ways held money leaves escrow at the end, the same steps for both
 * kinds; each kind says only how much the seller gets, or which payments the
 * buyer gets back.
 */

type Common = CommonState<string>

/** Everything held is released: `payout` to the seller, the rest (the fees) kept. */
export function releaseHeld<S extends Common>(state: S, payout: number, now: Date, extra: readonly Effect[]): Result<S> {
  return step(enter(state, 'funds_released' as S['status'], now, { amountReleased: payout, ...lapsed(state, now) } as Partial<S>), [
    ...extra,
    ...releaseEffects({ currency: state.currency, held: state.amountHeld, payout, sourcePaymentIntentId: state.paymentIntentId }),
    ...notifyBoth('funds_released', 'seller'),
  ])
}

/** The seller failed (complaint accepted, admin's decision): everything held goes back to the buyer, by `refunds`. */
export function refundHeld<S extends Common>(state: S, refunds: readonly RefundCall[], now: Date, extra: readonly Effect[]): Result<S> {
  return step(
    enter(state, 'payment_refunded' as S['status'], now, {
      amountRefunded: state.amountRefunded + state.amountHeld,
      ...lapsed(state, now),
    } as Partial<S>),
    [...extra, ...refundEffects({ currency: state.currency, held: state.amountHeld, refunds }), ...notifyBoth('payment_refunded')],
  )
}

/**
 * What a case is about, in money: the price the buyer paid for the item (a
 * face-to-face sale's total once the remainder was paid), each side's fee on
 * it, and how a refund of some amount goes back to the payments it came from.
 */
export interface DisputedMoney {
  readonly price: number
  readonly buyerFee: number
  readonly sellerFee: number
  readonly refunds: (amount: number) => RefundCall[]
}

/**
 * The fees follow the price (docs/decisions/095): the buyer gets back the
 * share of their fee that the refunded part is of the price, and the seller
 * pays the share of theirs that the released part is, each rounded half up.
 * Pactum keeps the fees on the part of the sale that went through.
 */
export function splitAmounts(money: DisputedMoney, split: Split): { buyerRefund: number; payout: number } {
  return {
    buyerRefund: split.refundToBuyer + feeShare(money.buyerFee, split.refundToBuyer, money.price),
    payout: split.releaseToSeller - feeShare(money.sellerFee, split.releaseToSeller, money.price),
  }
}

/** fee × part / price, rounded half up, in integers (fee × part may pass 2^53). */
function feeShare(fee: number, part: number, price: number): number {
  if (price === 0) return 0
  return Number((BigInt(fee) * BigInt(part) * 2n + BigInt(price)) / (2n * BigInt(price)))
}

/**
 * A case ends on a split both parties agreed or an admin decided: the buyer's
 * part goes back and the seller's is paid out in one step, and the sale ends
 * released with both amounts above zero.
 */
export function splitHeld<S extends Common>(
  state: S,
  money: DisputedMoney,
  split: Split,
  now: Date,
  template: NotifyTemplate,
  extra: readonly Effect[] = [],
): Result<S> {
  const { buyerRefund, payout } = splitAmounts(money, split)
  const next = enter(state, 'funds_released' as S['status'], now, {
    amountReleased: payout,
    amountRefunded: state.amountRefunded + buyerRefund,
    ...lapsed(state, now),
  } as Partial<S>)
  return step(next, [
    ...extra,
    ...splitEffects({
      currency: state.currency,
      held: state.amountHeld,
      payout,
      refunds: money.refunds(buyerRefund),
      sourcePaymentIntentId: state.paymentIntentId,
    }),
    ...notifyBoth(template),
  ])
}

/** A case settled another way leaves no offer open. */
function lapsed<S extends Common>(state: S, now: Date): Partial<Common> {
  return state.complaint ? { complaint: { ...state.complaint, offers: closeOpenOffer(state.complaint, 'lapsed', now) } } : {}
}

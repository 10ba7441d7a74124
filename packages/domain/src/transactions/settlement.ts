import { type CommonState, type Effect, enter, notifyBoth, type Result, step } from './kernel.ts'
import { type RefundCall, refundEffects, releaseEffects } from './postings.ts'

/**
 * The two ways held money leaves escrow at the end, the same steps for both
 * kinds; each kind says only how much the seller gets, or which payments the
 * buyer gets back.
 */

type Common = CommonState<string>

/** Everything held is released: `payout` to the seller, the rest (the fees) kept. */
export function releaseHeld<S extends Common>(state: S, payout: number, now: Date, extra: readonly Effect[]): Result<S> {
  return step(enter(state, 'funds_released' as S['status'], now, { amountReleased: payout } as Partial<S>), [
    ...extra,
    ...releaseEffects({ currency: state.currency, held: state.amountHeld, payout, sourcePaymentIntentId: state.paymentIntentId }),
    ...notifyBoth('funds_released', 'seller'),
  ])
}

/** The seller failed (complaint accepted, admin's decision): everything held goes back to the buyer, by `refunds`. */
export function refundHeld<S extends Common>(state: S, refunds: readonly RefundCall[], now: Date, extra: readonly Effect[]): Result<S> {
  return step(
    enter(state, 'payment_refunded' as S['status'], now, { amountRefunded: state.amountRefunded + state.amountHeld } as Partial<S>),
    [...extra, ...refundEffects({ currency: state.currency, held: state.amountHeld, refunds }), ...notifyBoth('payment_refunded')],
  )
}

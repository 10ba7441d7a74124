import {
  type Actor,
  type CommonState,
  enter,
  type HoldPart,
  noop,
  type NotifyTemplate,
  refuse,
  type Result,
  type ReturnReason,
  step,
} from './kernel.ts'
import { returnUnheld } from './postings.ts'

/**
 * The provider's news about a payment or a refund where both kinds answer
 * alike; each kind says which payment it waits for. The news may come late,
 * twice, or be about money the sale never held: only the awaited payment or
 * refund moves the state.
 */

type Common = CommonState<string>

/** A payment failed: only news of the one being processed matters; a failed card attempt is already shown in the browser. */
export function paymentFailed<S extends Common>(
  state: S,
  event: { readonly paymentIntentId: string },
  actor: Actor,
  awaited: string | null,
): Result<S> {
  if (actor.kind !== 'system') return refuse('forbidden')
  if (awaited !== null && state.isPaymentInProgress && awaited === event.paymentIntentId) {
    return step({ ...state, isPaymentInProgress: false }, [{ type: 'notify', template: 'payment_failed', to: 'buyer' }])
  }
  return noop(state)
}

/**
 * A refund settled. Only the refund of a cancellation, waited for in `waiting`,
 * moves the sale on (to `settled`, the buyer told); any other (money sent
 * straight back unheld, a refund already recorded) changes nothing, and so
 * does a payment sent back unheld that settles first: it is not the held
 * payment's refund.
 */
export function refundSettled<S extends Common>(
  state: S,
  event: { readonly paymentIntentId?: string },
  actor: Actor,
  now: Date,
  waiting: S['status'],
  settled: S['status'] & NotifyTemplate,
): Result<S> {
  if (actor.kind !== 'system') return refuse('forbidden')
  if (state.status !== waiting) return noop(state)
  if (event.paymentIntentId !== undefined && event.paymentIntentId !== state.paymentIntentId) return noop(state)
  return step(enter(state, settled, now), [{ type: 'notify', template: settled, to: 'buyer' }])
}

/**
 * A payment that succeeded but is not held goes straight back (`returnUnheld`);
 * `waited`: it was the payment being processed, and that wait is over.
 */
export function sendBack<S extends Common>(
  state: S,
  payment: { paymentIntentId: string; amount: number; part: HoldPart; reason: ReturnReason },
  waited: boolean,
): Result<S> {
  const returned = returnUnheld(state, payment)
  if (waited) return step({ ...returned.next, isPaymentInProgress: false }, returned.effects)
  return returned.next === state ? noop(state, returned.effects) : step(returned.next, returned.effects)
}

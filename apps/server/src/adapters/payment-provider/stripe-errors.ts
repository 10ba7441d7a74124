import Stripe from 'stripe'
import { PaymentProviderError, ProviderRateLimitedError } from './provider-error.ts'

/**
 * Stripe's refusals in the port's vocabulary. Only the refusals that say
 * our request was wrong become PaymentProviderError; what may pass by
 * itself (Stripe down, a refused key, the network) is thrown as it is, so
 * the job that made the call retries it; a rate limit becomes
 * ProviderRateLimitedError, which the outbox's pace also slows for. Stripe's messages
 * never carry the secret key, only its last four characters.
 */
export function toPortError(error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error
  if (error instanceof Stripe.errors.StripeRateLimitError) return new ProviderRateLimitedError(error.message)
  if (error instanceof Stripe.errors.StripeIdempotencyError) {
    return new PaymentProviderError('idempotency_key_reused', error.message)
  }
  if (!(error instanceof Stripe.errors.StripeInvalidRequestError) && !(error instanceof Stripe.errors.StripeCardError)) return error
  const param = error.param ? { param: error.param } : {}
  if (error.statusCode === 404 || error.code === 'resource_missing') return new PaymentProviderError('not_found', error.message, param)
  switch (error.code) {
    case 'payment_intent_unexpected_state':
    case 'charge_not_refundable':
    case 'balance_insufficient':
    case 'insufficient_funds':
      return new PaymentProviderError('invalid_state', error.message, param)
    case 'amount_too_large':
    case 'charge_already_refunded':
    case 'charge_exceeds_source_limit':
      return new PaymentProviderError('amount_too_large', error.message, param)
    default:
      return new PaymentProviderError('invalid_request', error.message, param)
  }
}

/** Runs one Stripe call, its refusal translated. */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw toPortError(error)
  }
}

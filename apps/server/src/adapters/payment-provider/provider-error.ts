/** The refusals of all three payment-provider ports (payments, connected accounts, identity). */
export type PaymentProviderErrorCode =
  | 'idempotency_key_reused'
  | 'not_found'
  | 'invalid_request'
  | 'invalid_state'
  | 'amount_too_large'
  /** A payment method asked for in a currency it does not take (P24 outside EUR/PLN, SEPA outside EUR). */
  | 'unsupported_combination'

/** A refusal by the provider (a bug or a race on our side, never the buyer's card: see PaymentError). */
export class PaymentProviderError extends Error {
  readonly code: PaymentProviderErrorCode
  /** The request parameter at fault, where the provider names one (Stripe's `param`). */
  readonly param: string | undefined
  constructor(code: PaymentProviderErrorCode, message: string, options: { param?: string } = {}) {
    super(message)
    this.name = 'PaymentProviderError'
    this.code = code
    this.param = options.param
  }
}

/**
 * The provider refused for pace (Stripe's HTTP 429, `rate_limit`): nothing
 * was done, and the same call (with the same idempotency key) may be made
 * again in a moment. The outbox slows its own pace when it meets one
 * (provider-pace.ts); a user's request answers 503 with `Retry-After`.
 */
export class ProviderRateLimitedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProviderRateLimitedError'
  }
}

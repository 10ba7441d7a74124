import Stripe from 'stripe'
import type { PaymentsConfig } from '../../config.ts'

type StripeSettings = Extract<PaymentsConfig, { provider: 'stripe' }>

/**
 * The SDK, pointed at STRIPE_API_URL when set (a proxy, the tests' fake).
 * No SDK retries: the jobs that make the calls retry with their own
 * backoff, and always with the same idempotency key.
 */
export function createStripeClient(settings: StripeSettings): Stripe {
  const { api } = settings
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 0,
    timeout: 30_000,
    appInfo: { name: 'Pactum' },
    ...(api ? { host: api.host, port: api.port, protocol: api.protocol } : {}),
  })
}

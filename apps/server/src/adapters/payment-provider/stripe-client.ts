import Stripe from 'stripe'
import type { PaymentsConfig } from '../../config.ts'

type StripeSettings = Extract<PaymentsConfig, { provider: 'stripe' }>

/**
 * The SDK, pointed at STRIPE_API_URL when set (a proxy, the tests' fake):
 * the host then serves files too, as the SDK sends every request to a
 * configured host. No SDK retries: the jobs that make the calls retry
 * with their own backoff, and always with the same idempotency key.
 */
export function createStripeClient(settings: StripeSettings): { stripe: Stripe; filesBaseUrl: string } {
  const { api } = settings
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 0,
    timeout: 30_000,
    appInfo: { name: 'Pactum' },
    ...(api ? { host: api.host, port: api.port, protocol: api.protocol } : {}),
  })
  const filesBaseUrl = api
    ? `${api.protocol}://${api.host.includes(':') ? `[${api.host}]` : api.host}:${api.port}`
    : 'https://files.stripe.com'
  return { stripe, filesBaseUrl }
}

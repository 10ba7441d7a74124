import Stripe from 'stripe'
import type { SignatureCheck } from '../../modules/payments/webhook-signature.ts'

/** Stripe's documented tolerance (and stripe-node's default): a delivery signed longer ago is a replay. */
export const stripeSignatureToleranceSeconds = 300

export const stripeWebhookPath = '/webhooks/stripe'

/**
 * Checks `Stripe-Signature` over the raw body with Stripe's own SDK
 * (`webhooks.constructEvent`), against the app's clock so that tests can
 * move time. The platform endpoint and the Connect endpoint sign with
 * their own secrets: each secret given is tried (STRIPE_WEBHOOK_SECRET may
 * list both, comma-separated).
 */
export function stripeSignatureVerifier(
  stripe: Stripe,
  secrets: string[],
): (header: string | undefined, rawBody: Buffer, nowSeconds: number) => SignatureCheck {
  return (header, rawBody, nowSeconds) => {
    if (!header) return { ok: false, reason: 'missing' }
    let reason: 'malformed' | 'stale' | 'mismatch' = 'mismatch'
    for (const secret of secrets) {
      try {
        stripe.webhooks.constructEvent(rawBody, header, secret, stripeSignatureToleranceSeconds, undefined, nowSeconds * 1000)
        return { ok: true }
      } catch (error) {
        // The SDK parses the body only once the signature matched: a signed body that is not JSON is the route's to refuse.
        if (error instanceof SyntaxError) return { ok: true }
        if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error
        reason = reasonOf(error.message)
        // A stale or malformed header is so for every secret.
        if (reason !== 'mismatch') return { ok: false, reason }
      }
    }
    return { ok: false, reason }
  }
}

function reasonOf(message: string): 'malformed' | 'stale' | 'mismatch' {
  if (message.startsWith('Timestamp outside the tolerance zone')) return 'stale'
  if (message.startsWith('Unable to extract timestamp and signatures')) return 'malformed'
  return 'mismatch'
}

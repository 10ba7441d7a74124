import type Stripe from 'stripe'
import { PaymentProviderError } from './provider-error.ts'
import type { PaymentError, PaymentIntent, PaymentIntentStatus, PaymentMethodType, Refund, RefundStatus } from './payments-port.ts'

/** Stripe's objects in the port's shape: pure functions, no calls. */

export const stripeMethodNames: Record<PaymentMethodType, string> = { card: 'card', sepa: 'sepa_debit', p24: 'p24' }

const portMethodNames: Record<string, PaymentMethodType> = { card: 'card', sepa_debit: 'sepa', p24: 'p24' }

/**
 * Our intents confirm with automatic capture, so `requires_capture` only
 * appears on an intent made elsewhere: it is money not yet taken, like
 * `processing`. `requires_confirmation` waits for the browser, like a
 * fresh intent.
 */
const intentStatuses: Record<string, PaymentIntentStatus> = {
  requires_payment_method: 'requires_payment_method',
  requires_confirmation: 'requires_payment_method',
  requires_action: 'requires_action',
  processing: 'processing',
  requires_capture: 'processing',
  succeeded: 'succeeded',
  canceled: 'canceled',
}

export function toPaymentIntent(intent: Stripe.PaymentIntent): PaymentIntent {
  const charge = typeof intent.latest_charge === 'object' && intent.latest_charge !== null ? intent.latest_charge : null
  const redirect = intent.next_action?.type === 'redirect_to_url' ? intent.next_action.redirect_to_url : null
  const method = portMethodNames[intent.payment_method_types[0] ?? '']
  // Stripe drops a method the intent's currency cannot be paid with rather than refusing it: an intent left with none is refused here.
  if (!method) {
    throw new PaymentProviderError(
      'unsupported_combination',
      `Payment intent ${intent.id} in ${intent.currency} can be paid with ${intent.payment_method_types.join(', ') || 'no method'}, none of which Pactum offers`,
      { param: 'allowed_payment_method_types' },
    )
  }
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    status: intentStatuses[intent.status] ?? 'processing',
    amount: intent.amount,
    currency: intent.currency,
    paymentMethod: method,
    transactionId: intent.metadata.transaction_id ?? '',
    metadata: { ...intent.metadata },
    amountRefunded: charge?.amount_refunded ?? 0,
    lastPaymentError: toPaymentError(intent.last_payment_error),
    nextAction:
      redirect?.url && redirect.return_url ? { type: 'redirect_to_url', url: redirect.url, returnUrl: redirect.return_url } : null,
  }
}

/** Stripe's `last_payment_error` (the sandbox keeps the same shape). */
export function toPaymentError(
  error: { code?: string | null; decline_code?: string | null; message?: string | null } | null,
): PaymentError | null {
  if (!error) return null
  const code = error.code ?? 'payment_failed'
  const declineCode = error.decline_code
  // Stripe's generic decline says no more than its code does (as reduce-provider-event.ts reads webhooks).
  return { code, reason: declineCode && declineCode !== 'generic_decline' ? declineCode : code, message: error.message ?? '' }
}

/** Stripe's `requires_action` (a refund to a customer's bank) waits as pending; a canceled refund did not happen: failed. */
const refundStatuses: Record<string, RefundStatus> = {
  pending: 'pending',
  requires_action: 'pending',
  succeeded: 'succeeded',
  failed: 'failed',
  canceled: 'failed',
}

export function toRefund(refund: Stripe.Refund, paymentIntentId: string): Refund {
  return {
    id: refund.id,
    paymentIntentId: typeof refund.payment_intent === 'string' ? refund.payment_intent : (refund.payment_intent?.id ?? paymentIntentId),
    amount: refund.amount,
    currency: refund.currency,
    status: refundStatuses[refund.status ?? 'pending'] ?? 'pending',
    failureReason: refund.failure_reason ?? null,
  }
}

export function fromUnixSeconds(seconds: number): Date {
  return new Date(seconds * 1000)
}

import { z } from 'zod'
import type { ChargebackStatus } from '@pactum/domain/transactions/chargeback'
import type { PaymentEvent } from './payment-event.ts'

/** The envelope Stripe (and the sandbox) send; `data.object` is the resource as it is now. */
export const providerEventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  created: z.number().int().nonnegative(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
  /** A Connect event's connected account (Stripe sends these to the Connect endpoint only); absent on the platform's own. */
  account: z.string().min(1).max(255).nullish(),
})
export type ProviderEvent = z.infer<typeof providerEventSchema>

const objectSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  metadata: z.record(z.string(), z.string()).nullish(),
  payment_intent: z.string().nullish(),
  status: z.string().nullish(),
  failure_reason: z.string().nullish(),
  last_payment_error: z.object({ code: z.string().nullish(), decline_code: z.string().nullish() }).nullish(),
})

/** Stripe's Dispute, as much of it as Pactum reads (API reference "The Dispute object"). */
const disputeSchema = z.object({
  id: z.string().min(1),
  amount: z.number().int().positive(),
  currency: z.string(),
  payment_intent: z.string().nullish(),
  reason: z.string(),
  status: z.string(),
  evidence_details: z.object({ due_by: z.number().int().nullish() }).nullish(),
  balance_transactions: z.array(z.object({ fee: z.number().int(), currency: z.string() })).default([]),
})

/** Radar's early fraud warning (API reference "The Early Fraud Warning object"): no amount, only its charge and payment intent. */
const fraudWarningSchema = z.object({
  id: z.string().min(1),
  payment_intent: z.string().nullish(),
  fraud_type: z.string(),
})

const chargebackStatuses: Record<string, ChargebackStatus> = {
  needs_response: 'needs_response',
  under_review: 'under_review',
  won: 'won',
  lost: 'lost',
}

/**
 * A card dispute as the one `dispute_changed`, whichever `charge.dispute.*`
 * brought it: each carries the whole dispute as it is now. An inquiry
 * (`warning_*`) takes no money and is not followed; neither is a dispute on
 * a charge without a payment intent (none of Pactum's).
 */
function reduceDispute(base: Pick<PaymentEvent, 'eventId' | 'provider' | 'occurredAt'>, object: unknown): PaymentEvent | null {
  const parsed = disputeSchema.safeParse(object)
  if (!parsed.success || !parsed.data.payment_intent) return null
  const dispute = parsed.data
  const status = chargebackStatuses[dispute.status]
  if (!status) return null
  const fees = dispute.balance_transactions
  return {
    ...base,
    type: 'dispute_changed',
    transactionId: null,
    paymentIntentId: dispute.payment_intent ?? undefined,
    amount: dispute.amount,
    currency: dispute.currency,
    dispute: {
      id: dispute.id,
      status,
      reason: dispute.reason,
      evidenceDueBy: dispute.evidence_details?.due_by ? new Date(dispute.evidence_details.due_by * 1000).toISOString() : null,
      fee:
        fees.length === 0
          ? null
          : { amount: fees.reduce((sum, entry) => sum + entry.fee, 0), currency: fees[0]?.currency ?? dispute.currency },
    },
  }
}

function reduceFraudWarning(base: Pick<PaymentEvent, 'eventId' | 'provider' | 'occurredAt'>, object: unknown): PaymentEvent | null {
  const parsed = fraudWarningSchema.safeParse(object)
  if (!parsed.success || !parsed.data.payment_intent) return null
  return {
    ...base,
    type: 'early_fraud_warning',
    transactionId: null,
    paymentIntentId: parsed.data.payment_intent,
    amount: 0,
    currency: '',
    fraudWarning: { id: parsed.data.id, fraudType: parsed.data.fraud_type },
  }
}

/**
 * Reduces a provider event to the few payment events Pactum acts on, or
 * null for the many it does not. Refunds are followed through `refund.*`
 * events rather than `charge.refunded`: the latter carries the charge's
 * running total, which does not say which of several refunds settled.
 */
export function reduceProviderEvent(provider: PaymentEvent['provider'], event: ProviderEvent): PaymentEvent | null {
  const news = { eventId: event.id, provider, occurredAt: new Date(event.created * 1000) }
  if (event.type.startsWith('charge.dispute.')) return reduceDispute(news, event.data.object)
  if (event.type === 'radar.early_fraud_warning.created') return reduceFraudWarning(news, event.data.object)
  const type = paymentEventType(event)
  if (!type) return null
  const parsed = objectSchema.safeParse(event.data.object)
  if (!parsed.success) return null
  const object = parsed.data
  const base = {
    type,
    eventId: event.id,
    provider,
    occurredAt: new Date(event.created * 1000),
    transactionId: object.metadata?.transaction_id ?? null,
    amount: object.amount,
    currency: object.currency,
  }
  switch (type) {
    case 'payment_succeeded':
    case 'payment_processing':
      return { ...base, paymentIntentId: object.id }
    case 'payment_failed': {
      const error = object.last_payment_error
      // Stripe's generic decline says no more than its code does.
      const reason =
        error?.decline_code && error.decline_code !== 'generic_decline' ? error.decline_code : (error?.code ?? 'payment_failed')
      return { ...base, paymentIntentId: object.id, reason }
    }
    case 'refund_succeeded':
      return { ...base, refundId: object.id, ...(object.payment_intent ? { paymentIntentId: object.payment_intent } : {}) }
    case 'refund_failed':
      return {
        ...base,
        refundId: object.id,
        ...(object.payment_intent ? { paymentIntentId: object.payment_intent } : {}),
        reason: object.failure_reason ?? 'unknown',
      }
    case 'transfer_paid':
      return { ...base, transferId: object.id }
    default:
      return null
  }
}

function paymentEventType(event: ProviderEvent): Exclude<PaymentEvent['type'], 'dispute_changed' | 'early_fraud_warning'> | null {
  const status = event.data.object.status
  switch (event.type) {
    case 'payment_intent.succeeded':
      return 'payment_succeeded'
    case 'payment_intent.payment_failed':
      return 'payment_failed'
    case 'payment_intent.processing':
      return 'payment_processing'
    // A card refund is `succeeded` when it is made, and Stripe then sends only
    // `refund.created` (for every refund since API 2024-10-28); a bank
    // refund (SEPA) is made `pending` and settles with `refund.updated`.
    case 'refund.created':
    case 'refund.updated':
      return status === 'succeeded' ? 'refund_succeeded' : status === 'failed' ? 'refund_failed' : null
    case 'refund.failed':
      return 'refund_failed'
    case 'transfer.created':
      return 'transfer_paid'
    default:
      return null
  }
}

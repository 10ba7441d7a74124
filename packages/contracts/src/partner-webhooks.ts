import { z } from 'zod'
import { anyTransactionSchema } from './f2f-transactions.ts'

/**
 * Partner webhooks and the event feed (issue 35): one event per change of a
 * transaction created under a partner client, signed as the Standard
 * Webhooks specification says, and listed for partners that poll.
 */

/** Each status a transaction of either kind reaches → the event that tells it. */
export const partnerEventTypeOfStatus = {
  created: 'transaction.created',
  joined: 'transaction.joined',
  paid: 'transaction.paid',
  tracked: 'transaction.tracked',
  delivered: 'transaction.delivered',
  complained: 'transaction.complained',
  complaint_period_ended: 'transaction.complaint_period_ended',
  funds_released: 'transaction.released',
  cancelled: 'transaction.cancelled',
  cancelled_with_payment: 'transaction.cancelled',
  cancelled_with_deposit: 'transaction.cancelled',
  rejected: 'transaction.rejected',
  payment_refunded: 'transaction.refunded',
  deposit_paid: 'transaction.deposit_paid',
  deposit_accepted: 'transaction.deposit_accepted',
  priced: 'transaction.priced',
  remainder_paid: 'transaction.remainder_paid',
  remainder_skipped: 'transaction.remainder_skipped',
  seller_handover_confirmed: 'transaction.seller_handover_confirmed',
  buyer_handover_confirmed: 'transaction.buyer_handover_confirmed',
  deposit_refunded: 'transaction.deposit_refunded',
} as const

/**
 * The changes that keep the status but a partner wants to hear of: a case's
 * offers and escalation (issue 32), a card dispute's news (decision 109).
 * Keyed by the engine's event.
 */
export const partnerEventTypeOfChange = {
  propose_settlement: 'case.settlement_proposed',
  decline_settlement: 'case.settlement_declined',
  escalate_case: 'case.escalated',
  case_response_elapsed: 'case.escalated',
  dispute_changed: 'transaction.chargeback_updated',
} as const

export type PartnerEventType =
  | (typeof partnerEventTypeOfStatus)[keyof typeof partnerEventTypeOfStatus]
  | (typeof partnerEventTypeOfChange)[keyof typeof partnerEventTypeOfChange]
export const partnerEventTypes = [...new Set([...Object.values(partnerEventTypeOfStatus), ...Object.values(partnerEventTypeOfChange)])] as [
  PartnerEventType,
  ...PartnerEventType[],
]
export const partnerEventTypeSchema = z.enum(partnerEventTypes)

/** Each delivery's body, and each entry of the feed. */
export const partnerEventSchema = z
  .object({
    id: z.string().meta({ description: "the event's id, the delivery's `webhook-id`" }),
    type: partnerEventTypeSchema,
    timestamp: z.string().meta({ description: 'when the change happened (ISO 8601)' }),
    data: z.object({
      transaction: anyTransactionSchema.meta({ description: 'the transaction as the API showed it after the change' }),
      sequence: z.number().int().positive().meta({ description: "the transaction's events counted from 1: apply them in this order" }),
    }),
  })
  .meta({ id: 'PartnerEvent' })
export type PartnerEvent = z.infer<typeof partnerEventSchema>

export const partnerEventFeedQuerySchema = z.object({
  after: z.string().max(100).optional().meta({ description: "the last event id read; the feed's beginning (30 days) when left out" }),
  limit: z.coerce.number().int().min(1).max(100).default(100),
})

export const partnerEventFeedSchema = z.object({ events: z.array(partnerEventSchema) }).meta({ id: 'PartnerEventFeed' })

const webhookUrlSchema = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .meta({ description: 'where deliveries are POSTed; private, loopback and link-local addresses are refused' })

export const webhookEndpointBodySchema = z.object({
  url: webhookUrlSchema,
  event_types: z
    .array(partnerEventTypeSchema)
    .max(partnerEventTypes.length)
    .optional()
    .meta({ description: 'the event types sent to it; every type when left out or empty' }),
})

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    event_types: z.array(partnerEventTypeSchema),
    disabled_at: z.string().nullable().meta({ description: 'set when it kept failing: nothing is delivered until it is enabled again' }),
    disabled_reason: z.string().nullable().meta({ description: 'why it was disabled, with its last failure; null while it is enabled' }),
    created_at: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' })
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>

export const createdWebhookEndpointSchema = webhookEndpointSchema
  .extend({ secret: z.string().meta({ description: 'the signing secret (whsec_…), shown this once' }) })
  .meta({ id: 'CreatedWebhookEndpoint' })

export const webhookEndpointParams = z.object({ id: z.uuid() })
export const clientWebhookEndpointParams = z.object({ client_id: z.string().max(100), id: z.uuid() })
export const clientParams = z.object({ client_id: z.string().max(100) })

/** One event's delivery to one endpoint, as the console shows it. */
export const webhookDeliverySchema = z
  .object({
    event_id: z.string(),
    type: partnerEventTypeSchema,
    transaction_id: z.string(),
    sequence: z.number().int(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable().meta({ description: 'when it is tried again; null once delivered or given up' }),
    delivered_at: z.string().nullable(),
    request_body: z.string().meta({
      description:
        'the body POSTed, as the receiver got it (with the headers webhook-id = event_id, webhook-timestamp and webhook-signature)',
    }),
    last_attempt: z
      .object({
        attempted_at: z.string(),
        duration_ms: z.number().int(),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
        response_body: z.string().nullable().meta({ description: "the receiver's answer, its first 2,000 characters" }),
      })
      .nullable(),
  })
  .meta({ id: 'WebhookDelivery' })
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>

export const webhookDeliveryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: z.string().max(100).optional().meta({ description: 'the last event id of the previous page (newest first)' }),
})

/** Sends events again: these ones, or every event of the client made in a time range. */
export const webhookReplayBodySchema = z
  .object({
    event_ids: z.array(z.string().max(100)).min(1).max(100).optional(),
    from: z.iso.datetime().optional(),
    to: z.iso.datetime().optional(),
  })
  .refine(
    (body) => {
      const range = body.from !== undefined || body.to !== undefined
      return (body.event_ids !== undefined) !== range && (!range || (body.from !== undefined && body.to !== undefined))
    },
    { message: 'give event_ids, or from and to', path: ['event_ids'] },
  )
  .refine((body) => body.from === undefined || body.to === undefined || body.from < body.to, {
    message: 'from must be before to',
    path: ['to'],
  })

export const webhookReplaySchema = z.object({ replayed: z.number().int() }).meta({ id: 'WebhookReplay' })

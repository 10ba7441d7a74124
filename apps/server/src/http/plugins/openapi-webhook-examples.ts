import type {
  createdWebhookEndpointSchema,
  partnerEventFeedSchema,
  webhookEndpointBodySchema,
  webhookEndpointSchema,
} from '@pactum/contracts/partner-webhooks'
import type { z } from 'zod'
import { trackedTransactionExample } from './openapi-transaction-example.ts'

/*
 * Whole examples for a partner's webhook calls (issue 35): registering an
 * endpoint (its secret shown once), listing endpoints, and the event feed,
 * whose events are the webhooks' bodies with their `webhook-id`. Typed
 * against the contracts and checked by the document's lint, as
 * openapi-examples.ts's are.
 */

const endpointRequest = {
  url: 'https://market.example/pactum/webhooks',
  event_types: ['transaction.paid', 'transaction.released'],
} as const satisfies z.input<typeof webhookEndpointBodySchema>

const endpoint = {
  id: '019a8e30-0c4e-7d5a-b1f2-3e4d5c6b7a89',
  url: 'https://market.example/pactum/webhooks',
  event_types: ['transaction.paid', 'transaction.released'],
  disabled_at: null,
  disabled_reason: null,
  created_at: '2026-11-22T09:00:00.000Z',
} as const satisfies z.output<typeof webhookEndpointSchema>

const createdEndpoint = {
  ...endpoint,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw1bZoBRfY8Qk=',
} as const satisfies z.output<typeof createdWebhookEndpointSchema>

/** A partner's own view of its sale: no party's role, no actions, no join code. */
const asThePartnerSeesIt = {
  ...trackedTransactionExample,
  role: null,
  available_actions: [],
  client_id: 'acme-marketplace',
} satisfies z.output<typeof partnerEventFeedSchema>['events'][number]['data']['transaction']

const feed = {
  events: [
    {
      id: 'evt_019a8e2c9a417c3e9f402d6b8a1c0e57',
      type: 'transaction.tracked',
      timestamp: '2026-11-23T08:45:00.000Z',
      data: { transaction: asThePartnerSeesIt, sequence: 4 },
    },
  ],
} as const satisfies z.output<typeof partnerEventFeedSchema>

type Examples = Record<string, { summary: string; value: unknown }>

export const webhookOperationExamples: Record<string, { request?: Examples; answers?: Record<string, Examples> }> = {
  'post /api/v1/partner/webhook_endpoints': {
    request: { paidAndReleased: { summary: 'Only the payment and the release of each sale', value: endpointRequest } },
    answers: { '201': { created: { summary: 'The endpoint, with its signing secret shown this once', value: createdEndpoint } } },
  },
  'get /api/v1/partner/webhook_endpoints': {
    answers: { '200': { one: { summary: 'One endpoint, delivering', value: [endpoint] } } },
  },
  'get /api/v1/partner/events': {
    answers: {
      '200': { tracked: { summary: 'A sale’s fourth event: the seller sent the parcel', value: feed } },
    },
  },
}

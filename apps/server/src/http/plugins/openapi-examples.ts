import type { partnerGuestTransactionBodySchema, partnerGuestTransactionSchema } from '@pactum/contracts/guest-transactions'
import type { PartnerTransactionCreated, partnerTransactionBodySchema } from '@pactum/contracts/partner-transactions'
import type { Transaction } from '@pactum/contracts/transactions'
import type { z } from 'zod'
import { trackedTransactionExample } from './openapi-transaction-example.ts'
import { webhookOperationExamples } from './openapi-webhook-examples.ts'

/*
 * Whole examples for the calls an integrator reads first: a partner's
 * transaction created on behalf of its users and called off, its guest
 * transaction, asked for and answered, and a transaction as read. They sit
 * on the operation's JSON body (a media-type example), not on the shared
 * schema, which other calls answer in other states too (and zod carries a
 * schema's `examples` into answers but not into request bodies). Typed
 * against the contract, and checked against the schema by the document's
 * lint (`no-invalid-media-type-examples`), so they cannot drift.
 */

const partnerRequest = {
  type: 'online',
  buyer_email: 'bea.buyer@example.com',
  seller_email: 'sam.seller@example.com',
  price: 10_000,
  currency: 'eur',
  description: 'Road bike, 56 cm frame, with two spare inner tubes',
  invitation_language: 'en_gb',
} as const satisfies z.input<typeof partnerGuestTransactionBodySchema>

const partnerAnswer = {
  id: '019a8e2c-5b1d-7c3e-9f40-2d6b8a1c0e57',
  type: 'online',
  status: 'created',
  client_id: 'acme-marketplace',
  price: 10_000,
  charge: 340,
  currency: 'eur',
  description: 'Road bike, 56 cm frame, with two spare inner tubes',
  buyer_email: 'bea.buyer@example.com',
  seller_email: 'sam.seller@example.com',
} as const satisfies z.output<typeof partnerGuestTransactionSchema>

/** A partner's sale for its seller, who is invited by e-mail; the buyer comes with the join code. */
const partnerForSeller = {
  type: 'online',
  seller_email: 'sam.seller@example.com',
  price: 10_000,
  currency: 'eur',
  description: 'Road bike, 56 cm frame, with two spare inner tubes',
  invitation_language: 'en_gb',
} as const satisfies z.input<typeof partnerTransactionBodySchema>

const partnerForBuyer = {
  type: 'f2f',
  buyer_email: 'bea.buyer@example.com',
  price: 2_500,
  currency: 'eur',
  description: 'Deposit for a sofa, collected in person',
} as const satisfies z.input<typeof partnerTransactionBodySchema>

/** The sale as the partner reads it (`GET /partner/transactions/{id}`): nobody has taken their place yet. */
const partnerView = {
  ...trackedTransactionExample,
  status: 'created',
  role: null,
  buyer_id: null,
  seller_id: null,
  client_id: 'acme-marketplace',
  joined: null,
  paid: null,
  tracked: null,
  tracking: null,
  tracking_deadline: null,
  available_actions: [],
} satisfies Transaction

const partnerCreatedForSeller = {
  ...partnerView,
  join_code: 'HX7KP2QM',
  seller_email: 'sam.seller@example.com',
  buyer_email: null,
} as const satisfies PartnerTransactionCreated

const partnerCancelled = { ...partnerView, status: 'cancelled', cancelled: '2026-11-22T11:30:00.000Z' } as const satisfies Transaction

type Examples = Record<string, { summary: string; value: unknown }>

/** By `method /path` as the document writes them: the request body's examples, and each answer's by status. */
export const operationExamples: Record<string, { request?: Examples; answers?: Record<string, Examples> }> = {
  'post /api/v1/partner/transactions': {
    request: {
      seller: { summary: 'An online sale for the seller, invited in English; the buyer will use the join code', value: partnerForSeller },
      buyer: {
        summary: 'A face-to-face deposit for the buyer, invited by e-mail; the seller will use the join code',
        value: partnerForBuyer,
      },
    },
    answers: {
      '201': {
        seller: { summary: 'The seller invited; show the join code to the buyer on your site', value: partnerCreatedForSeller },
      },
    },
  },
  'post /api/v1/partner/transactions/{id}/cancel': {
    answers: { '200': { cancelled: { summary: 'Called off before anyone paid', value: partnerCancelled } } },
  },
  'post /api/v1/partner/guest_transactions': {
    request: { online: { summary: 'An online sale of 100.00 EUR, the invitations in English', value: partnerRequest } },
    answers: { '201': { online: { summary: 'Both parties invited; the buyer pays price and charge', value: partnerAnswer } } },
  },
  'get /api/v1/transactions/{id}': {
    answers: {
      '200': { tracked: { summary: 'An online sale, read by its buyer after the parcel was sent', value: trackedTransactionExample } },
    },
  },
}

interface JsonBody {
  content?: Record<string, { examples?: Examples }>
}
interface PathsDocument {
  paths?: Record<string, Record<string, { requestBody?: JsonBody; responses?: Record<string, JsonBody> }>>
}

/** The document with the examples above on their operations' JSON bodies. */
export function withExamples<T extends object>(document: T): T {
  const paths = (document as PathsDocument).paths ?? {}
  const jsonOf = (body: JsonBody | undefined, where: string) => {
    const json = body?.content?.['application/json']
    if (!json) throw new Error(`examples for ${where}, which the document has no JSON body for`)
    return json
  }
  for (const [key, { request, answers = {} }] of Object.entries({ ...operationExamples, ...webhookOperationExamples })) {
    const [method, path] = key.split(' ') as [string, string]
    const operation = paths[path]?.[method]
    if (request) jsonOf(operation?.requestBody, `${key}'s request`).examples = request
    for (const [status, examples] of Object.entries(answers)) jsonOf(operation?.responses?.[status], `${key} ${status}`).examples = examples
  }
  return document
}

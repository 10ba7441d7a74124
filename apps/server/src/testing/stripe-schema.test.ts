import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { stripeShapeProblems, stripeShapes } from './stripe-schema.ts'
import { startStripeFake } from './stripe-fake.ts'
import { allowedParams } from './stripe-fake/routes.ts'

/** Each write the fake answers → the SDK's parameters for it. */
const paramsOfRoute: Record<string, string> = {
  'POST payment_intents': 'PaymentIntentCreateParams',
  'POST payment_intents/:id/confirm': 'PaymentIntentConfirmParams',
  'POST payment_intents/:id/cancel': 'PaymentIntentCancelParams',
  'POST refunds': 'RefundCreateParams',
  'POST transfers': 'TransferCreateParams',
  'POST transfers/:id/reversals': 'TransferCreateReversalParams',
  'POST accounts': 'AccountCreateParams',
  'POST accounts/:id': 'AccountUpdateParams',
  'POST accounts/:id/external_accounts': 'AccountCreateExternalAccountParams',
  'POST account_links': 'AccountLinkCreateParams',
  'POST account_sessions': 'AccountSessionCreateParams',
  'POST identity/:id': 'Identity.VerificationSessionCreateParams',
  'POST disputes/:id': 'DisputeUpdateParams',
  'POST disputes/:id/close': 'DisputeCloseParams',
}

const installed = (file: string) => readFileSync(new URL(`../../../../node_modules/stripe/${file}`, import.meta.url), 'utf8')

/** A refund as Stripe sends it (the API reference's example, fields as in API 2026-10-28). */
const refund = {
  id: 're_1',
  object: 'refund',
  amount: 1000,
  balance_transaction: 'txn_1',
  charge: 'ch_1',
  created: 1_700_000_000,
  currency: 'eur',
  customer: null,
  customer_account: null,
  metadata: {},
  payment_intent: 'pi_1',
  payment_method: 'pm_1',
  reason: null,
  receipt_number: null,
  source_transfer_reversal: null,
  status: 'succeeded',
  transfer_reversal: null,
}

describe("Stripe's published shapes (fixtures/stripe-shapes.json)", () => {
  it('were written from the stripe package installed, at the API version it pins', () => {
    expect(stripeShapes.stripePackage).toBe((JSON.parse(installed('package.json')) as { version: string }).version)
    expect(stripeShapes.openapiVersion).toBe(installed('OPENAPI_VERSION').trim())
    expect(installed('cjs/apiVersion.js')).toContain(`'${stripeShapes.apiVersion}'`)
  })

  it('list every parameter the fake takes: it refuses the others, as Stripe does, so an adapter that sends one Stripe lacks fails', () => {
    for (const [route, names] of Object.entries(allowedParams)) {
      const params = paramsOfRoute[route]
      expect(params, route).toBeDefined()
      // Stripe.js confirms in the browser with the payment's client secret, a parameter the server SDK has no use for.
      const sdk = [
        ...(stripeShapes.params[params as string] ?? []),
        ...(route === 'POST payment_intents/:id/confirm' ? ['client_secret'] : []),
      ]
      expect(
        names.filter((name) => !sdk.includes(name)),
        route,
      ).toEqual([])
    }
  })

  it('take an object as Stripe sends it', () => {
    expect(stripeShapeProblems(refund)).toEqual([])
    expect(stripeShapeProblems({ object: 'list', data: [refund], has_more: false, url: '/v1/refunds' })).toEqual([])
  })

  it('name what a misreading would send: a field Stripe does not have, one it always sends, a wrong type or value', () => {
    expect(stripeShapeProblems({ ...refund, account: 'acct_1' })).toEqual(["answer.account: not a field of Stripe's Refund"])
    const { customer: _customer, ...withoutCustomer } = refund
    expect(stripeShapeProblems(withoutCustomer)).toEqual(["answer.customer: always present in Stripe's Refund"])
    expect(stripeShapeProblems({ ...refund, amount: '1000' })).toEqual(['answer.amount: not a number ("1000")'])
    expect(stripeShapeProblems({ ...refund, reason: 'buyer_asked' })[0]).toMatch(
      /^answer\.reason: "buyer_asked" is not one of duplicate, fraudulent/,
    )
    expect(stripeShapeProblems({ ...refund, object: 'refund_request' })).toEqual([
      'answer: "refund_request" is not an object the fixture holds',
    ])
  })

  it('check an expanded object by its own shape, and a list by each item', () => {
    const expanded = { ...refund, charge: { id: 'ch_1', object: 'charge', amount: 1000 } }
    expect(stripeShapeProblems(expanded)).toContain("answer.charge.captured: always present in Stripe's Charge")
    const page = { object: 'list', data: [{ ...refund, amount: null }], has_more: false, url: '/v1/refunds', total: 1 }
    expect(stripeShapeProblems(page)).toEqual(['answer.total: not a field Stripe sends here', 'answer.data[0].amount: not a number (null)'])
  })

  it("check an event's envelope, its type, and its object by the type's model", () => {
    const event = {
      id: 'evt_1',
      object: 'event',
      api_version: stripeShapes.apiVersion,
      created: 1_700_000_000,
      data: { object: refund },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'refund.created',
    }
    expect(stripeShapeProblems(event)).toEqual([])
    expect(stripeShapeProblems({ ...event, type: 'refund.succeeded' })).toEqual(['answer.type: "refund.succeeded" is not an event type'])
    expect(stripeShapeProblems({ ...event, type: 'charge.dispute.created' })).toContain(
      "answer.data.object.evidence: always present in Stripe's Dispute",
    )
  })

  it("check an error body by the SDK's raw error, with the v1 API's types", () => {
    expect(stripeShapeProblems({ error: { type: 'invalid_request_error', message: 'No such refund', code: 'resource_missing' } })).toEqual(
      [],
    )
    expect(stripeShapeProblems({ error: { type: 'not_found', message: 'No such refund' } })[0]).toMatch(/answer\.error\.type: "not_found"/)
    expect(stripeShapeProblems({ error: { type: 'api_error', statusCode: 500 } })).toContain(
      'answer.error.statusCode: added by the SDK, never sent by Stripe',
    )
  })

  it("are what the fake answers with: a card payment's answers and events match them", async () => {
    const fake = await startStripeFake()
    const post = (path: string, body: Record<string, string>) =>
      fetch(`${fake.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fake.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body),
      })
    const created = await post('/v1/payment_intents', { amount: '1000', currency: 'eur', 'allowed_payment_method_types[0]': 'card' })
    const intent = (await created.json()) as { id: string }
    await post(`/v1/payment_intents/${intent.id}/confirm`, { payment_method: 'pm_card_visa' })
    await post('/v1/refunds', { payment_intent: intent.id, amount: '400' })
    await fake.settle()
    expect(fake.events.map((event) => event.type)).toEqual([
      'charge.refunded',
      'refund.created',
      'payment_intent.succeeded',
      'charge.succeeded',
      'payment_intent.created',
    ])
    expect(fake.shapeProblems()).toEqual([])
    await fake.close()
  })
})

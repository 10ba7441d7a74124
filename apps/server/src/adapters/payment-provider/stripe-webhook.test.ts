import Stripe from 'stripe'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PaymentEvent } from '../../modules/payments/payment-event.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { joinedSale, type SaleCall } from '../../testing/sale-steps.ts'
import { startStripeFake, type StripeFake } from '../../testing/stripe-fake.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { stripeWebhookPath } from './stripe-webhook.ts'

/*
 * Stripe's webhooks at /webhooks/stripe: checked on the raw body by the
 * SDK (signature and 300 s tolerance), recorded once per event id, safe in
 * any order, and recovered by the catch-up job when never delivered.
 */

let fake: StripeFake
let testApp: TestApp
let clock: TestClock
let call: SaleCall
let handled: PaymentEvent[]

const post = async (delivery: { headers: Record<string, string>; payload: string }) =>
  testApp.app.inject({ method: 'POST', url: stripeWebhookPath, headers: delivery.headers, payload: delivery.payload })

beforeEach(async () => {
  clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  fake = await startStripeFake({ now: () => clock.now() })
  testApp = await createTestApp({ clock, env: fake.env })
  handled = []
  testApp.app.services.events.registerPaymentEventHandler(async (event) => {
    handled.push(event)
  })
  fake.setWebhookTarget(async (delivery) => (await post(delivery)).statusCode)
  call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' } }))
}, 60_000)
afterEach(async () => {
  await testApp.close()
  await fake.close()
})

/** A succeeded payment's event, as Stripe would send it. */
async function succeededPaymentEvent(): Promise<Record<string, unknown>> {
  fake.pauseDeliveries(true)
  const intent = await testApp.app.services.payments.createPaymentIntent({
    amount: 2000,
    currency: 'eur',
    paymentMethod: 'card',
    transactionId: 'tx-w',
    idempotencyKey: 'tx-w:pay',
  })
  await fake.confirm(intent.id, intent.clientSecret, { paymentMethod: 'pm_card_visa' })
  await fake.settle()
  fake.pauseDeliveries(false)
  return fake.events.find((event) => event.type === 'payment_intent.succeeded') as Record<string, unknown>
}

const recorded = () =>
  testApp.database.db.selectFrom('provider_events').select(['event_id', 'processed_at']).where('provider', '=', 'stripe').execute()

describe('signature', () => {
  it('refuses a body signed with another secret, a tampered body and no signature, with 400', async () => {
    const event = await succeededPaymentEvent()
    const forged = fake.signedDelivery(event, { secret: 'whsec_not_the_endpoint_secret' })
    expect((await post(forged)).statusCode).toBe(400)
    const genuine = fake.signedDelivery(event)
    expect((await post({ headers: genuine.headers, payload: genuine.payload.replace('"amount":2000', '"amount":2') })).statusCode).toBe(400)
    const unsigned = await post({ headers: { 'content-type': 'application/json' }, payload: genuine.payload })
    expect(unsigned.statusCode).toBe(400)
    expect(unsigned.json()).toMatchObject({ code: 'validation_failed', details: { field: 'Stripe-Signature' } })
    expect(await recorded()).toEqual([])
    expect(handled).toEqual([])
  })

  it('refuses a correctly signed body that is not JSON with 400, not a server error', async () => {
    const payload = 'not json'
    const signature = new Stripe(fake.secretKey).webhooks.generateTestHeaderString({
      payload,
      secret: fake.webhookSecret,
      timestamp: Math.floor(clock.now().getTime() / 1000),
    })
    const garbage = await post({ headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload })
    expect(garbage.statusCode).toBe(400)
    expect(garbage.json().error).toContain('not JSON')
  })

  it('refuses a delivery signed more than 300 s ago, and takes one signed just within', async () => {
    const event = await succeededPaymentEvent()
    const now = Math.floor(clock.now().getTime() / 1000)
    const stale = await post(fake.signedDelivery(event, { timestamp: now - 301 }))
    expect(stale.statusCode).toBe(400)
    expect(stale.json().error).toContain('stale')
    expect((await post(fake.signedDelivery(event, { timestamp: now - 299 }))).statusCode).toBe(200)
    expect(handled).toEqual([
      expect.objectContaining({ type: 'payment_succeeded', provider: 'stripe', transactionId: 'tx-w', amount: 2000 }),
    ])
  })

  it('takes either secret when the platform and Connect endpoints sign with their own', async () => {
    await testApp.close()
    testApp = await createTestApp({
      clock,
      env: { ...fake.env, STRIPE_WEBHOOK_SECRET: `whsec_connect_endpoint_secret, ${fake.webhookSecret}` },
    })
    const event = await succeededPaymentEvent()
    expect((await post(fake.signedDelivery(event))).statusCode).toBe(200)
    expect((await post(fake.signedDelivery({ ...event, id: 'evt_connect' }, { secret: 'whsec_connect_endpoint_secret' }))).statusCode).toBe(
      200,
    )
    expect((await post(fake.signedDelivery(event, { secret: 'whsec_neither' }))).statusCode).toBe(400)
  })
})

it('processes a redelivered event once', async () => {
  const event = await succeededPaymentEvent()
  const first = await post(fake.signedDelivery(event))
  const second = await post(fake.signedDelivery(event))
  expect([first.json(), second.json()]).toEqual([
    { received: true, duplicate: false },
    { received: true, duplicate: true },
  ])
  expect(handled).toHaveLength(1)
  expect(await recorded()).toEqual([{ event_id: event.id, processed_at: expect.any(Date) }])
})

it('keeps a sale paid when a decline’s news arrives after the success’s', async () => {
  const { id } = await joinedSale(call)
  fake.pauseDeliveries(true)
  const opened = await call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
  await fake.confirm(opened.body.payment_intent_id, opened.body.client_secret, { paymentMethod: 'pm_card_chargeDeclined' })
  await fake.confirm(opened.body.payment_intent_id, opened.body.client_secret, { paymentMethod: 'pm_card_visa' })
  await fake.settle()
  const failed = fake.events.find((event) => event.type === 'payment_intent.payment_failed') as Record<string, unknown>
  const succeeded = fake.events.find((event) => event.type === 'payment_intent.succeeded') as Record<string, unknown>
  expect((await post(fake.signedDelivery(succeeded))).statusCode).toBe(200)
  expect((await post(fake.signedDelivery(failed))).statusCode).toBe(200)
  const transaction = await call('buyer', 'GET', `/api/v1/transactions/${id}`)
  expect(transaction.body).toMatchObject({ status: 'paid', is_payment_in_progress: false })
})

it('recovers a delivery Stripe never made with the catch-up job, once', async () => {
  const { id } = await joinedSale(call)
  fake.pauseDeliveries(true)
  const opened = await call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
  await fake.confirm(opened.body.payment_intent_id, opened.body.client_secret, { paymentMethod: 'pm_card_visa' })
  await fake.settle()
  expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('joined')

  // The job runs every 5 minutes.
  await clock.advance(testApp.app, 5 * 60)
  expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('paid')
  const listed = fake.requests.filter((request) => request.path === '/v1/events')
  expect(listed[0]?.params).toMatchObject({
    created: { gte: expect.any(String) },
    types: expect.arrayContaining(['payment_intent.succeeded', 'refund.created', 'refund.updated', 'transfer.created']),
  })
  const succeeded = handled.filter((event) => event.type === 'payment_succeeded')
  expect(succeeded).toHaveLength(1)

  // A later run, and the delivery arriving after all, change nothing.
  await clock.advance(testApp.app, 5 * 60)
  fake.pauseDeliveries(false)
  const event = fake.events.find((candidate) => candidate.type === 'payment_intent.succeeded') as Record<string, unknown>
  expect((await post(fake.signedDelivery(event))).json()).toEqual({ received: true, duplicate: true })
  expect(handled.filter((candidate) => candidate.type === 'payment_succeeded')).toHaveLength(1)
  expect(fake.requests.filter((request) => request.path === '/v1/events').length).toBeGreaterThanOrEqual(2)
})

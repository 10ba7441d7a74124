import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EventHandlers } from '../../events/event-handlers.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'
import type { PaymentEvent } from './payment-event.ts'
import { receiveProviderEvent } from './receive-provider-event.ts'
import { signWebhook } from './webhook-signature.ts'

const secret = 'whsec_test_0123456789abcdef'

describe('POST /webhooks/sandbox', () => {
  let testApp: TestApp
  let clock: TestClock
  let handled: PaymentEvent[]

  beforeEach(async () => {
    clock = new TestClock(new Date('2026-11-02T10:00:00Z'))
    testApp = await createTestApp({ clock, env: { SANDBOX_WEBHOOK_SECRET: secret } })
    handled = []
  })
  afterEach(async () => {
    await testApp.close()
  })

  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000)
  const event = (id: string, type: string, object: Record<string, unknown>, created = nowSeconds()) => ({
    id,
    object: 'event',
    type,
    created,
    data: { object: { amount: 10_340, currency: 'eur', metadata: { transaction_id: 'tx-9' }, ...object } },
  })
  const post = (payload: string, signature: string | undefined) =>
    testApp.app.inject({
      method: 'POST',
      url: '/webhooks/sandbox',
      headers: { 'content-type': 'application/json', ...(signature ? { 'pactum-signature': signature } : {}) },
      payload,
    })
  const deliver = (body: object, timestamp = nowSeconds()) => {
    const payload = JSON.stringify(body)
    return post(payload, signWebhook(payload, secret, timestamp))
  }
  const handleEvents = () =>
    testApp.app.services.events.registerPaymentEventHandler(async (event) => {
      handled.push(event)
    })

  it('hands a verified event to the handler as a payment event', async () => {
    handleEvents()
    const response = await deliver(event('evt_1', 'payment_intent.succeeded', { id: 'pi_1', status: 'succeeded' }))
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ received: true, duplicate: false })
    expect(handled).toEqual([
      {
        type: 'payment_succeeded',
        eventId: 'evt_1',
        provider: 'sandbox',
        occurredAt: clock.now(),
        transactionId: 'tx-9',
        paymentIntentId: 'pi_1',
        amount: 10_340,
        currency: 'eur',
      },
    ])
  })

  it('refuses a bad, missing, malformed or stale signature with 400', async () => {
    handleEvents()
    const payload = JSON.stringify(event('evt_2', 'payment_intent.succeeded', { id: 'pi_2' }))
    const wrongSecret = await post(payload, signWebhook(payload, 'whsec_someone_else_entirely', nowSeconds()))
    expect(wrongSecret.statusCode).toBe(400)
    expect(wrongSecret.json().code).toBe('validation_failed')
    const tampered = await post(payload.replace('10340', '1'), signWebhook(payload, secret, nowSeconds()))
    expect(tampered.statusCode).toBe(400)
    expect((await post(payload, undefined)).statusCode).toBe(400)
    expect((await post(payload, 'v1=abc')).statusCode).toBe(400)
    const stale = await post(payload, signWebhook(payload, secret, nowSeconds() - 301))
    expect(stale.statusCode).toBe(400)
    expect(stale.json().error).toContain('stale')
    expect((await post(payload, signWebhook(payload, secret, nowSeconds() + 301))).statusCode).toBe(400)
    expect((await post(payload, signWebhook(payload, secret, nowSeconds() - 299))).statusCode).toBe(200)
    expect(handled).toHaveLength(1)
  })

  it('handles an event delivered five times once', async () => {
    handleEvents()
    const body = event('evt_3', 'payment_intent.payment_failed', {
      id: 'pi_3',
      last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
    })
    const responses = []
    for (let attempt = 0; attempt < 5; attempt++) responses.push(await deliver(body))
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200])
    expect(responses.map((response) => response.json().duplicate)).toEqual([false, true, true, true, true])
    const concurrent = await Promise.all([1, 2, 3].map(() => deliver(event('evt_4', 'payment_intent.succeeded', { id: 'pi_4' }))))
    expect(concurrent.map((response) => response.statusCode)).toEqual([200, 200, 200])
    expect(handled.map((event) => [event.eventId, event.reason])).toEqual([
      ['evt_3', 'insufficient_funds'],
      ['evt_4', undefined],
    ])
  })

  it('takes events out of order and keeps the provider’s time of each', async () => {
    handleEvents()
    const processing = event('evt_5', 'payment_intent.processing', { id: 'pi_5' }, nowSeconds() - 10)
    const succeeded = event('evt_6', 'payment_intent.succeeded', { id: 'pi_5' }, nowSeconds() - 2)
    expect((await deliver(succeeded)).statusCode).toBe(200)
    expect((await deliver(processing)).statusCode).toBe(200)
    expect(handled.map((event) => event.type)).toEqual(['payment_succeeded', 'payment_processing'])
    expect(handled[1]!.occurredAt.getTime()).toBeLessThan(handled[0]!.occurredAt.getTime())
    const stored = await testApp.app.services.db.selectFrom('provider_events').select(['event_id', 'created']).orderBy('created').execute()
    expect(stored.map((row) => row.event_id)).toEqual(['evt_5', 'evt_6'])
  })

  it('stores and acknowledges events while no handler is registered', async () => {
    const { db } = testApp.app.services
    const body = event('evt_7', 'refund.updated', { id: 're_1', status: 'succeeded', payment_intent: 'pi_7' })
    const outcome = await receiveProviderEvent({ db, clock, handlers: new EventHandlers() }, 'sandbox', body)
    expect(outcome).toBe('stored')
    const row = await db.selectFrom('provider_events').selectAll().where('event_id', '=', 'evt_7').executeTakeFirstOrThrow()
    expect(row.processed_at).toBeNull()
    expect(row.domain_event).toMatchObject({ type: 'refund_succeeded', refundId: 're_1', paymentIntentId: 'pi_7' })
  })

  it('answers 500 and forgets the event when the handler fails, so that the provider retries', async () => {
    let fail = true
    testApp.app.services.events.registerPaymentEventHandler(async (event) => {
      if (fail) throw new Error('database busy')
      handled.push(event)
    })
    const body = event('evt_8', 'transfer.created', { id: 'tr_1', destination: 'acct_1' })
    expect((await deliver(body)).statusCode).toBe(500)
    fail = false
    expect((await deliver(body)).json()).toEqual({ received: true, duplicate: false })
    expect(handled).toEqual([expect.objectContaining({ type: 'transfer_paid', transferId: 'tr_1' })])
  })

  it('acknowledges events Pactum does not act on without calling the handler', async () => {
    handleEvents()
    const response = await deliver(event('evt_9', 'payment_intent.created', { id: 'pi_9' }))
    expect(response.statusCode).toBe(200)
    expect(handled).toEqual([])
    expect((await post('not json', signWebhook('not json', secret, nowSeconds()))).statusCode).toBe(400)
  })
})

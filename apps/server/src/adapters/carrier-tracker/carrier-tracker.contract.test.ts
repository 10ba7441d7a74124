import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type AftershipFake, type FakeTracking, startAftershipFake, type WebhookTarget } from '../../testing/aftership-fake.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { AftershipApi, AftershipApiError } from './aftership-api.ts'
import type { AftershipCarrierTracker } from './aftership.ts'
import { signAftershipWebhook } from './aftership-webhook.ts'
import { trackingWebhookPath } from './aftership-webhook-route.ts'
import type { CarrierEvent } from './port.ts'
import { trackingQueue } from './sandbox.ts'

/**
 * The carrier tracker port's contract, run against the sandbox tracker and
 * the AfterShip-style adapter (against a local stateful fake of its API):
 * the same expectations, each tracker driven the way its news arrives
 * (the sandbox's timers; the aggregator's signed webhooks).
 */
interface Harness {
  testApp: TestApp
  clock: TestClock
  events: CarrierEvent[]
  /** Registers a parcel as trackShipment does, and lets the work after the commit run. */
  register(carrier: string, trackingCode: string, transactionId: string): Promise<void>
  /** The carrier reports the parcel in transit, then delivered; each news delivered to the app once. */
  inTransit(trackingCode: string): Promise<void>
  delivered(trackingCode: string): Promise<void>
  /** The last news about the parcel delivered again (a provider's retry, a job run twice). */
  replay(trackingCode: string): Promise<void>
  close(): Promise<void>
}

/** The app with its carrier events collected: what both harnesses share before their carrier's news differs. */
async function startApp(env: Record<string, string>): Promise<Pick<Harness, 'testApp' | 'clock' | 'events' | 'register' | 'close'>> {
  const clock = new TestClock()
  const testApp = await createTestApp({ clock, env })
  const events: CarrierEvent[] = []
  testApp.app.services.events.registerCarrierEventHandler(async (event) => {
    events.push(event)
  })
  return { testApp, clock, events, register: registerThrough(testApp, clock), close: () => testApp.close() }
}

/** Both trackers start following a parcel the same way: the app's own tracker, then whatever work it queued. */
function registerThrough(testApp: TestApp, clock: TestClock): Harness['register'] {
  return async (carrier, trackingCode, transactionId) => {
    await testApp.app.services.carrierTracker.register({ carrier, trackingCode, transactionId })
    await clock.advance(testApp.app, 0)
  }
}

async function sandboxHarness(): Promise<Harness> {
  const started = await startApp({
    SANDBOX_TRACKING_IN_TRANSIT_SECONDS: '30',
    SANDBOX_TRACKING_DELIVERED_SECONDS: '120',
  })
  const { testApp, clock } = started
  const last = new Map<string, { registrationId: string; type: string }>()
  const registrationOf = async (trackingCode: string) =>
    (
      await testApp.database.db
        .selectFrom('tracking_registrations')
        .select('id')
        .where('tracking_code', '=', trackingCode)
        .executeTakeFirstOrThrow()
    ).id
  return {
    ...started,
    inTransit: async (trackingCode) => {
      await clock.advance(testApp.app, 30)
      last.set(trackingCode, { registrationId: await registrationOf(trackingCode), type: 'in_transit' })
    },
    delivered: async (trackingCode) => {
      await clock.advance(testApp.app, 90)
      last.set(trackingCode, { registrationId: await registrationOf(trackingCode), type: 'delivered' })
    },
    replay: async (trackingCode) => {
      await testApp.app.services.jobs.send(trackingQueue, last.get(trackingCode) as object)
      await clock.advance(testApp.app, 0)
    },
  }
}

function injectTarget(testApp: TestApp): WebhookTarget {
  return async ({ headers, payload }) =>
    (await testApp.app.inject({ method: 'POST', url: trackingWebhookPath, headers, payload })).statusCode
}

async function aftershipHarness(fake: AftershipFake, env: Record<string, string> = {}): Promise<Harness> {
  const started = await startApp({
    TRACKING_API_KEY: fake.apiKey,
    TRACKING_WEBHOOK_SECRET: fake.webhookSecret,
    TRACKING_API_URL: fake.url,
    ...env,
  })
  const { testApp, clock } = started
  const sent = new Map<string, { headers: Record<string, string>; payload: string }>()
  const report = async (trackingCode: string, tag: string) => {
    const tracking = [...fake.trackings.values()].find((candidate) => candidate.tracking_number === trackingCode) as FakeTracking
    fake.checkpoint(tracking.slug, trackingCode, tag, clock.now())
    const webhook = fake.webhook(tracking)
    sent.set(trackingCode, webhook)
    expect(await injectTarget(testApp)(webhook)).toBe(200)
  }
  return {
    ...started,
    inTransit: async (trackingCode) => {
      await clock.moveBy(30)
      await report(trackingCode, 'InTransit')
    },
    delivered: async (trackingCode) => {
      await clock.moveBy(90)
      await report(trackingCode, 'Delivered')
    },
    replay: async (trackingCode) => {
      expect(await injectTarget(testApp)(sent.get(trackingCode) as { headers: Record<string, string>; payload: string })).toBe(200)
    },
  }
}

const trackers: Array<[string, (fake: AftershipFake) => Promise<Harness>]> = [
  ['sandbox', () => sandboxHarness()],
  ['aftership', (fake) => aftershipHarness(fake)],
]

describe.each(trackers)('carrier tracker contract: %s', (_name, start) => {
  let fake: AftershipFake
  let h: Harness
  beforeEach(async () => {
    fake = await startAftershipFake()
    h = await start(fake)
  }, 30_000)
  afterEach(async () => {
    await h.close()
    await fake.close()
  })

  it('hands register → in transit → delivered to the handler once each, with the parcel and the sale', async () => {
    await h.register('dhl', 'JD014600003828', 'tx-7')
    expect(h.events).toEqual([])
    await h.inTransit('JD014600003828')
    await h.replay('JD014600003828')
    expect(h.events.map((event) => event.type)).toEqual(['in_transit'])
    await h.delivered('JD014600003828')
    await h.replay('JD014600003828')
    expect(h.events.map((event) => event.type)).toEqual(['in_transit', 'delivered'])
    expect(h.events[1]).toMatchObject({ transactionId: 'tx-7', carrier: 'dhl', trackingCode: 'JD014600003828' })
    expect(new Set(h.events.map((event) => event.eventId)).size).toBe(2)
    const recorded = await h.testApp.database.db.selectFrom('carrier_events').select(['type', 'processed_at']).execute()
    expect(recorded.map((row) => row.type).sort()).toEqual(['delivered', 'in_transit'])
    expect(recorded.every((row) => row.processed_at !== null)).toBe(true)
  })

  it('refuses a carrier it does not know', async () => {
    await expect(
      h.testApp.app.services.carrierTracker.register({ carrier: 'pigeon', trackingCode: 'X1', transactionId: 't' }),
    ).rejects.toThrow(/Unsupported carrier: pigeon/)
    expect(await h.testApp.database.db.selectFrom('tracking_registrations').selectAll().execute()).toEqual([])
  })

  it('registers nothing when the transaction that asked rolls back', async () => {
    const { db, carrierTracker } = h.testApp.app.services
    await expect(
      db.transaction().execute(async (trx) => {
        await carrierTracker.register({ carrier: 'ups', trackingCode: '1Z999', transactionId: 'tx-8' }, { db: trx })
        throw new Error('abort')
      }),
    ).rejects.toThrow('abort')
    await h.clock.advance(h.testApp.app, 86_400)
    expect(h.events).toEqual([])
    expect(await db.selectFrom('tracking_registrations').selectAll().execute()).toEqual([])
    expect(fake.requests.filter((request) => request.method === 'POST')).toEqual([])
  })

  it('serves its carriers at /supported_carriers, each once', async () => {
    const response = await h.testApp.app.inject({ method: 'GET', url: '/api/v1/supported_carriers' })
    expect(response.statusCode).toBe(200)
    const carriers = response.json() as Array<{ slug: string; name: string }>
    expect(carriers).toEqual(h.testApp.app.services.carrierTracker.supportedCarriers.map(({ slug, name }) => ({ slug, name })))
    expect(carriers).toContainEqual({ slug: 'royal-mail', name: 'Royal Mail' })
    expect(new Set(carriers.map((carrier) => carrier.slug)).size).toBe(carriers.length)
  })
})

describe('AfterShip-style tracker against its fake', () => {
  let fake: AftershipFake
  let h: Harness
  beforeEach(async () => {
    fake = await startAftershipFake()
    h = await aftershipHarness(fake, { TRACKING_POLL_MINUTES: '30' })
  }, 30_000)
  afterEach(async () => {
    await h.close()
    await fake.close()
  })
  const post = (headers: Record<string, string>, payload: string) =>
    h.testApp.app.inject({ method: 'POST', url: trackingWebhookPath, headers, payload })
  const registration = (trackingCode: string) =>
    h.testApp.database.db
      .selectFrom('tracking_registrations')
      .selectAll()
      .where('tracking_code', '=', trackingCode)
      .executeTakeFirstOrThrow()

  it('registers after the commit with the API key and the documented body', async () => {
    await h.register('royal-mail', 'RM123456785GB', 'tx-9')
    const creates = fake.requests.filter((request) => request.method === 'POST')
    expect(creates).toHaveLength(1)
    expect(creates[0]?.url).toBe('/tracking/2026-07/trackings')
    expect(creates[0]?.headers['as-api-key']).toBe(fake.apiKey)
    expect(creates[0]?.body).toEqual({
      slug: 'royal-mail',
      tracking_number: 'RM123456785GB',
      order_id: 'tx-9',
      custom_fields: { pactum_transaction_id: 'tx-9' },
    })
    const remote = fake.find('royal-mail', 'RM123456785GB')
    expect(await registration('RM123456785GB')).toMatchObject({ provider: 'aftership', remote_id: remote?.id, status: 'registered' })
    expect((await registration('RM123456785GB')).remote_registered_at).not.toBeNull()
  })

  it('sends no additional field a courier does not ask for', async () => {
    await h.register('dhl', 'JD-PLAIN', 'tx-15')
    const [create] = fake.requests.filter((request) => request.method === 'POST')
    expect(Object.keys(create?.body as object).sort()).toEqual(['custom_fields', 'order_id', 'slug', 'tracking_number'])
  })

  it('names the fields a courier needs that Pactum does not have, without asking the API or retrying', async () => {
    await h.close()
    fake.couriers.push({ slug: 'acme-freight', name: 'Acme Freight', required_fields: ['tracking_account_number', 'tracking_ship_date'] })
    h = await aftershipHarness(fake, { TRACKING_POLL_MINUTES: '30' })
    await h.register('acme-freight', 'AF-1', 'tx-16')
    expect(await registration('AF-1')).toMatchObject({
      refusal: 'missing_required_fields',
      refusal_fields: ['tracking_account_number'],
      remote_registered_at: null,
    })
    expect(fake.requests.filter((request) => request.method === 'POST')).toEqual([])
    // Neither the job's retries nor the poll ask again: the same request cannot succeed.
    await h.clock.advance(h.testApp.app, 3 * 3600)
    expect(fake.requests.filter((request) => request.method === 'POST')).toEqual([])
  })

  it('records a 4011 from the API (a courier list out of date) as the same refusal', async () => {
    const tracker = h.testApp.app.services.carrierTracker as AftershipCarrierTracker
    fake.couriers.push({ slug: 'acme-post', name: 'Acme Post', required_fields: [] })
    await tracker.refreshCarriers()
    // AfterShip starts asking for the account number after Pactum read the list.
    const courier = fake.couriers.find((candidate) => candidate.slug === 'acme-post')
    if (courier) courier.required_fields = ['tracking_account_number']
    await h.register('acme-post', 'AP-1', 'tx-17')
    expect(await registration('AP-1')).toMatchObject({ refusal: 'missing_required_fields', remote_registered_at: null })
    await h.clock.advance(h.testApp.app, 3 * 3600)
    expect(fake.requests.filter((request) => request.method === 'POST')).toHaveLength(1)
  })

  it('is refused by the API with another key', async () => {
    const api = new AftershipApi({ baseUrl: fake.url, apiKey: 'asat_not_the_right_key' })
    const refusal = await api.listCouriers().catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(AftershipApiError)
    expect(refusal).toMatchObject({ status: 401, metaCode: 401 })
  })

  it('counts "tracking already exists" (4003) as registered', async () => {
    const earlier = fake.seed('dhl', 'JD-SEEN-BEFORE')
    await h.register('dhl', 'JD-SEEN-BEFORE', 'tx-10')
    expect(fake.requests.filter((request) => request.method === 'POST')).toHaveLength(1)
    const row = await registration('JD-SEEN-BEFORE')
    expect(row.remote_registered_at).not.toBeNull()
    expect(row.remote_id).toBe(earlier.id)
    expect(fake.trackings.size).toBe(1)
  })

  it('retries the registration while the API is down', async () => {
    fake.failNext(2)
    await h.register('ups', '1Z-RETRY', 'tx-11')
    expect((await registration('1Z-RETRY')).remote_registered_at).toBeNull()
    for (let minute = 0; minute < 10 && !(await registration('1Z-RETRY')).remote_registered_at; minute += 1)
      await h.clock.advance(h.testApp.app, 60)
    expect((await registration('1Z-RETRY')).remote_registered_at).not.toBeNull()
    expect(fake.requests.filter((request) => request.method === 'POST')).toHaveLength(3)
    expect(fake.find('ups', '1Z-RETRY')).toBeDefined()
  })

  it('refuses a webhook with a missing, malformed or foreign signature (401), and handles nothing', async () => {
    await h.register('dhl', 'JD-SIGNED', 'tx-12')
    const tracking = fake.checkpoint('dhl', 'JD-SIGNED', 'Delivered', h.clock.now())
    const genuine = fake.webhook(tracking)
    const forged = fake.webhook(tracking, 'whsec_someone_else_entirely')
    const tampered = genuine.payload.replace('JD-SIGNED', 'JD-SIGNEE')
    const refusals = [
      await post({ 'content-type': 'application/json' }, genuine.payload),
      await post({ 'content-type': 'application/json', 'aftership-hmac-sha256': 'not base64' }, genuine.payload),
      await post(forged.headers, forged.payload),
      await post(genuine.headers, tampered),
    ]
    for (const refusal of refusals) {
      expect(refusal.statusCode).toBe(401)
      expect(refusal.json()).toMatchObject({ code: 'unauthenticated', details: { field: 'aftership-hmac-sha256' } })
    }
    expect(h.events).toEqual([])
    expect((await post(genuine.headers, genuine.payload)).statusCode).toBe(200)
    expect(h.events.map((event) => event.type)).toEqual(['delivered'])
  })

  it('answers 400 naming the field for a signed body that is not a tracking update, and 200 to other events', async () => {
    const notJson = 'not json'
    const bad = await post(
      { 'content-type': 'application/json', 'aftership-hmac-sha256': signAftershipWebhook(notJson, fake.webhookSecret) },
      notJson,
    )
    expect(bad.statusCode).toBe(400)
    const noMsg = JSON.stringify({ event: 'tracking_update', msg: { slug: 'dhl' } })
    const missing = await post(
      { 'content-type': 'application/json', 'aftership-hmac-sha256': signAftershipWebhook(noMsg, fake.webhookSecret) },
      noMsg,
    )
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toMatchObject({ code: 'validation_failed', details: { field: 'body.msg.tracking_number' } })
    const edd = JSON.stringify({ event: 'edd_revise', msg: { slug: 'dhl', tracking_number: 'X' } })
    const other = await post(
      { 'content-type': 'application/json', 'aftership-hmac-sha256': signAftershipWebhook(edd, fake.webhookSecret) },
      edd,
    )
    expect(other.statusCode).toBe(200)
    expect(h.events).toEqual([])
  })

  it('recovers a missed webhook by polling parcels not heard of for TRACKING_POLL_MINUTES', async () => {
    await h.register('dhl', 'JD-MISSED', 'tx-13')
    await h.clock.moveBy(600)
    fake.checkpoint('dhl', 'JD-MISSED', 'Delivered', h.clock.now())
    // 25 minutes after the registration: not yet quiet for 30.
    await h.clock.advance(h.testApp.app, 15 * 60)
    expect(h.events).toEqual([])
    expect(fake.requests.filter((request) => request.url.startsWith('/tracking/2026-07/trackings/'))).toEqual([])
    await h.clock.advance(h.testApp.app, 30 * 60)
    expect(h.events.map((event) => [event.type, event.transactionId])).toEqual([['delivered', 'tx-13']])
    const polls = fake.requests.filter((request) => request.method === 'GET' && request.url.startsWith('/tracking/2026-07/trackings/'))
    expect(polls.length).toBeGreaterThan(0)
    expect(polls.every((request) => request.headers['as-api-key'] === fake.apiKey)).toBe(true)
    // The webhook arriving late changes nothing, and a delivered parcel is polled no more.
    const late = fake.webhook(fake.find('dhl', 'JD-MISSED') as FakeTracking)
    expect((await post(late.headers, late.payload)).json()).toMatchObject({ outcome: 'duplicate' })
    const before = fake.requests.length
    await h.clock.advance(h.testApp.app, 3 * 30 * 60)
    expect(fake.requests.length).toBe(before)
    expect(h.events).toHaveLength(1)
  })

  it('ignores news older than news already had (out of order)', async () => {
    await h.register('dhl', 'JD-ORDER', 'tx-14')
    const inTransitAt = h.clock.now()
    await h.clock.moveBy(60)
    const delivered = fake.webhook(fake.checkpoint('dhl', 'JD-ORDER', 'Delivered', h.clock.now()))
    const tracking = fake.find('dhl', 'JD-ORDER') as FakeTracking
    const stale = fake.webhook({
      ...tracking,
      tag: 'Exception',
      checkpoints: [
        {
          created_at: inTransitAt.toISOString(),
          slug: 'dhl',
          checkpoint_time: inTransitAt.toISOString(),
          tag: 'Exception',
          subtag: 'Exception_001',
          message: 'x',
        },
      ],
    })
    expect((await post(delivered.headers, delivered.payload)).statusCode).toBe(200)
    expect((await post(stale.headers, stale.payload)).statusCode).toBe(200)
    expect(h.events.map((event) => event.type)).toEqual(['delivered'])
  })

  it("serves the account's courier list sorted by name, keeping the last good list when the API fails", async () => {
    const list = async () =>
      (await h.testApp.app.inject({ method: 'GET', url: '/api/v1/supported_carriers' })).json() as Array<{ slug: string; name: string }>
    const expected = [
      { slug: 'dhl', name: 'DHL Express' },
      { slug: 'hrvatska-posta', name: 'Hrvatska pošta' },
      { slug: 'royal-mail', name: 'Royal Mail' },
      { slug: 'ups', name: 'UPS' },
      { slug: 'yodel', name: 'Yodel' },
    ]
    expect(await list()).toEqual(expected)
    const tracker = h.testApp.app.services.carrierTracker as AftershipCarrierTracker
    fake.failNext(1)
    await tracker.refreshCarriers()
    expect(await list()).toEqual(expected)
    fake.couriers.push({ slug: 'an-post', name: 'An Post' })
    await tracker.refreshCarriers()
    expect((await list())[0]).toEqual({ slug: 'an-post', name: 'An Post' })
    await expect(tracker.register({ carrier: 'fedex', trackingCode: 'F1', transactionId: 't' })).rejects.toThrow(
      /Unsupported carrier: fedex/,
    )
  })

  it('starts on the built-in carrier list when the API does not answer', async () => {
    await h.close()
    fake.failNext(1)
    h = await aftershipHarness(fake)
    const carriers = h.testApp.app.services.carrierTracker.supportedCarriers
    expect(carriers).toContainEqual({ slug: 'fedex', name: 'FedEx' })
  })
})

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { verifyLedger } from '../../ledger/verify-ledger.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { depositAccepted, joinedF2fSale, payF2fByCard, setTotal } from '../../testing/f2f-sale-steps.ts'
import { complainAfterDelivery, confirmDelivery, joinedSale, payByCard, track } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { writtenMails } from '../../testing/written-mails.ts'
import { issueApiKey } from '../partner-clients/partner-api-key.ts'
import { purgeExpiredPartnerEvents } from './webhook-endpoints.ts'

const testApps = appPerTest()

interface Received {
  headers: IncomingHttpHeaders
  body: string
}

/** A partner's webhook receiver: a real HTTP server that answers 500 to its first `failFirst` requests. */
async function startReceiver(options: { failFirst?: number } = {}) {
  const received: Received[] = []
  let failures = options.failFirst ?? 0
  const server: Server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      if (failures > 0) {
        failures -= 1
        response.writeHead(500).end('not now')
        return
      }
      received.push({ headers: request.headers, body })
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return {
    url,
    received,
    failNoMore: () => {
      failures = 0
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const receivers: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()))
})

/** A partner client with an API key, its sellers and buyers signed in, and a receiver registered through the partner API. */
async function start(options: { failFirst?: number; allowPrivate?: boolean } = {}) {
  // Near the real time: a receiver checks the signature's timestamp against its own clock (5 minutes).
  const clock = new TestClock(new Date())
  const testApp = await testApps.open({ clock, env: { WEBHOOK_ALLOW_PRIVATE: String(options.allowPrivate ?? true) } })
  const { db } = testApp.app.services
  await db.insertInto('clients').values({ id: 'market', name: 'Market' }).execute()
  const apiKey = await issueApiKey(db, 'market', { kind: 'operator' }, clock.now())
  const call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' } }))
  const partner = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: object) =>
    testApp.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { 'x-pactum-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: body } : {}),
    })
  const receiver = await startReceiver(options)
  receivers.push(receiver)
  const settle = (seconds = 1) => clock.advance(testApp.app, seconds)
  return { testApp, clock, call, partner, receiver, settle }
}

async function register(partner: Awaited<ReturnType<typeof start>>['partner'], url: string, eventTypes?: string[]) {
  const created = await partner('POST', '/partner/webhook_endpoints', { url, ...(eventTypes ? { event_types: eventTypes } : {}) })
  expect(created.statusCode).toBe(201)
  expect(created.headers['cache-control']).toBe('no-store')
  const endpoint = created.json<{ id: string; secret: string }>()
  expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
  return endpoint
}

interface Delivered {
  type: string
  timestamp: string
  data: { transaction: { id: string; status: string }; sequence: number }
}

/**
 * Every delivery checked as a partner would, with the Standard Webhooks
 * library: signature, id and timestamp (within 5 minutes of the real
 * clock). A test that moves its clock further checks the signature alone.
 */
function verified(received: Received[], secret: string, options: { clockMoved?: boolean } = {}) {
  const webhook = new Webhook(secret)
  return received.map(({ headers, body }) => {
    const id = headers['webhook-id'] as string
    if (options.clockMoved) {
      const signedAt = new Date(Number(headers['webhook-timestamp']) * 1000)
      expect(headers['webhook-signature']).toBe(webhook.sign(id, signedAt, body))
      return { id, ...(JSON.parse(body) as Delivered) }
    }
    return { id, ...(webhook.verify(body, headers as Record<string, string>) as Delivered) }
  })
}

describe('partner webhooks', () => {
  it('tells the partner every step of an online sale made under its client, signed and in order, and the feed lists the same events', async () => {
    const { testApp, call, partner, receiver, settle } = await start()
    const { secret } = await register(partner, receiver.url)
    const { id } = await joinedSale(call, {}, { clientId: 'market' })
    await settle()
    await payByCard(call, id)
    await settle()
    await track(call, id, { carrier: 'dhl', tracking_code: 'JD0101' })
    await confirmDelivery(call, id)
    await settle()
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/end_complaint_period`)).status).toBe(200)
    await settle()

    const events = verified(receiver.received, secret)
    expect(events.map((event) => [event.type, event.data.sequence])).toEqual([
      ['transaction.created', 1],
      ['transaction.joined', 2],
      ['transaction.paid', 3],
      ['transaction.tracked', 4],
      ['transaction.delivered', 5],
      ['transaction.released', 6],
    ])
    // The transaction as the API shows it to someone who is neither party: its state, no join code.
    expect(events.at(-1)?.data.transaction).toMatchObject({ id, status: 'funds_released', join_code: null, available_actions: [] })
    expect(new Set(events.map((event) => event.id)).size).toBe(6)

    const feed = await partner('GET', '/partner/events')
    expect(feed.statusCode).toBe(200)
    const listed = feed.json<{ events: Array<{ id: string; type: string }> }>().events
    expect(listed.map((event) => event.id)).toEqual(events.map((event) => event.id))
    const after = await partner('GET', `/partner/events?after=${listed[3]?.id ?? ''}`)
    expect(after.json<{ events: Array<{ type: string }> }>().events.map((event) => event.type)).toEqual([
      'transaction.delivered',
      'transaction.released',
    ])
    expect((await partner('GET', '/partner/events?after=evt_unknown')).json()).toMatchObject({ code: 'invalid_after_id' })
    expect(await verifyLedger(testApp.app.services.db)).toEqual([])
  })

  it('tells every step of a face-to-face sale, and only the types an endpoint asked for', async () => {
    const { call, partner, receiver, settle } = await start()
    const { secret } = await register(partner, receiver.url)
    const filtered = await startReceiver()
    receivers.push(filtered)
    const paidOnly = await register(partner, filtered.url, ['transaction.deposit_paid', 'transaction.released'])
    const { id } = await joinedF2fSale(call, {}, { clientId: 'market' })
    await depositAccepted(call, id)
    await setTotal(call, id, 20_000)
    await payF2fByCard(call, id, 'remainder')
    expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)).status).toBe(200)
    expect((await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/end_complaint_period`)).status).toBe(200)
    await settle()

    expect(verified(receiver.received, secret).map((event) => event.type)).toEqual([
      'transaction.created',
      'transaction.joined',
      'transaction.deposit_paid',
      'transaction.deposit_accepted',
      'transaction.priced',
      'transaction.remainder_paid',
      'transaction.seller_handover_confirmed',
      'transaction.released',
    ])
    expect(verified(filtered.received, paidOnly.secret).map((event) => [event.type, event.data.sequence])).toEqual([
      ['transaction.deposit_paid', 3],
      ['transaction.released', 8],
    ])
  })

  it("tells a case's offers and escalation, which keep the status", async () => {
    const { call, partner, receiver, settle } = await start()
    const { secret } = await register(partner, receiver.url, [
      'transaction.complained',
      'case.settlement_proposed',
      'case.settlement_declined',
      'case.escalated',
    ])
    const { id } = await joinedSale(call, {}, { clientId: 'market' })
    await complainAfterDelivery(call, id)
    const offer = await call('seller', 'POST', `/api/v1/transactions/${id}/settlement_offers`, {
      refund_to_buyer: 3_000,
      release_to_seller: 7_000,
      note: 'A third back for the frame',
    })
    expect(offer.status).toBe(200)
    const { offers } = (await call('buyer', 'GET', `/api/v1/transactions/${id}/case`)).body as { offers: Array<{ id: string }> }
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/settlement_offers/${offers[0]?.id}/decline`)).status).toBe(200)
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/escalate`)).status).toBe(200)
    await settle()
    expect(verified(receiver.received, secret).map((event) => [event.type, event.data.transaction.status])).toEqual([
      ['transaction.complained', 'complained'],
      ['case.settlement_proposed', 'complained'],
      ['case.settlement_declined', 'complained'],
      ['case.escalated', 'complained'],
    ])
  })

  it('tries again with a growing wait when the receiver fails, and then delivers every event once, in order', async () => {
    const { testApp, call, partner, receiver, settle } = await start({ failFirst: 5 })
    const { secret } = await register(partner, receiver.url)
    const { id } = await joinedSale(call, {}, { clientId: 'market' })
    await payByCard(call, id)
    await settle()
    expect(receiver.received).toEqual([])
    // 10 s, 20 s, 40 s, 80 s, 160 s: the sixth attempt succeeds and the stream goes on.
    for (const wait of [10, 20, 40, 80, 160]) await settle(wait)
    expect(verified(receiver.received, secret, { clockMoved: true }).map((event) => event.type)).toEqual([
      'transaction.created',
      'transaction.joined',
      'transaction.paid',
    ])
    const attempts = await testApp.app.services.db.selectFrom('webhook_attempts').select(['status_code']).orderBy('id').execute()
    expect(attempts.map((attempt) => attempt.status_code)).toEqual([500, 500, 500, 500, 500, 204, 204, 204])
  })

  it('takes over a stream whose worker died holding its lease, once the lease runs out', async () => {
    const { testApp, call, partner, receiver, settle } = await start()
    const { secret } = await register(partner, receiver.url)
    const { db } = testApp.app.services
    await joinedSale(call, {}, { clientId: 'market' })
    // As a worker that leased the first delivery and was killed before posting it leaves it.
    const leaseUntil = new Date(testApp.app.services.clock.now().getTime() + 60_000)
    await db.updateTable('webhook_deliveries').set({ lease_until: leaseUntil }).where('sequence', '=', 1).execute()
    await settle()
    expect(receiver.received).toHaveLength(0)
    await settle(61)
    expect(verified(receiver.received, secret, { clockMoved: true }).map((event) => event.type)).toEqual([
      'transaction.created',
      'transaction.joined',
    ])
  })

  it('refuses private, loopback and link-local endpoints, when registered and when delivered to', async () => {
    const { testApp, call, partner, receiver, settle } = await start({ allowPrivate: false })
    for (const url of [
      'http://127.0.0.1:9/hooks',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hooks',
      'http://localhost/hooks',
    ]) {
      const refused = await partner('POST', '/partner/webhook_endpoints', { url })
      expect(refused.statusCode, url).toBe(400)
      expect(refused.json(), url).toMatchObject({ code: 'validation_failed', details: { fields: [{ field: 'url' }] } })
    }
    // An endpoint whose address became private after it was registered: the delivery is refused at its own lookup.
    const { db } = testApp.app.services
    await db
      .insertInto('webhook_endpoints')
      .values({
        id: crypto.randomUUID(),
        client_id: 'market',
        url: receiver.url,
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        created_at: new Date(),
      })
      .execute()
    await joinedSale(call, {}, { clientId: 'market' })
    await settle()
    expect(receiver.received).toEqual([])
    const attempts = await db.selectFrom('webhook_attempts').select(['status_code', 'error']).execute()
    expect(attempts[0]).toMatchObject({ status_code: null, error: expect.stringContaining('private or local address') })
  })

  it('signs with both secrets for a day after a rotation, then with the new one only', async () => {
    const { call, partner, receiver, settle } = await start()
    const { id, secret: old } = await register(partner, receiver.url)
    const rotated = await partner('POST', `/partner/webhook_endpoints/${id}/rotate_secret`)
    expect(rotated.statusCode).toBe(200)
    expect(rotated.headers['cache-control']).toBe('no-store')
    const { secret } = rotated.json<{ secret: string }>()
    expect(secret).not.toBe(old)
    await joinedSale(call, {}, { clientId: 'market' })
    await settle()
    expect(receiver.received[0]?.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/)
    // A receiver that still has the old secret, and one that has the new, both accept it.
    expect(verified(receiver.received, old)).toHaveLength(2)
    expect(verified(receiver.received, secret)).toHaveLength(2)
    receiver.received.length = 0
    await settle(24 * 3600 + 1)
    const sale = await joinedSale(call, {}, { clientId: 'market' })
    await settle()
    expect(receiver.received.map((delivery) => delivery.headers['webhook-signature'])).toEqual([
      expect.stringMatching(/^v1,\S+$/),
      expect.stringMatching(/^v1,\S+$/),
    ])
    expect(verified(receiver.received, secret, { clockMoved: true }).map((event) => event.data.transaction.id)).toEqual([sale.id, sale.id])
    expect(() => verified(receiver.received, old, { clockMoved: true })).toThrow()
  })

  it('disables an endpoint after three days of failures, tells the partner’s contact once, and sends what it was owed, in order, once it is enabled again', async () => {
    const { testApp, call, partner, receiver, settle } = await start({ failFirst: 1_000 })
    const { db } = testApp.app.services
    await db.updateTable('clients').set({ contact_email: 'dev@market.example' }).where('id', '=', 'market').execute()
    const { id, secret } = await register(partner, receiver.url)
    await joinedSale(call, {}, { clientId: 'market' })
    await settle()
    for (let hour = 0; hour < 80; hour += 1) await settle(3600)
    const [endpoint] = (await partner('GET', '/partner/webhook_endpoints')).json<
      Array<{ disabled_at: string | null; disabled_reason: string | null }>
    >()
    expect(endpoint?.disabled_at).not.toBeNull()
    expect(endpoint).toMatchObject({ disabled_reason: 'every attempt failed for three days (last: HTTP 500)' })
    // Both streams (created, joined) were failing; the one that disabled the endpoint sends the e-mail, once.
    const told = (await writtenMails(testApp.dataDir)).filter((mail) => mail.subject.startsWith('Webhook endpoint switched off'))
    expect(told.map((mail) => mail.to).sort()).toEqual(['dev@market.example', 'support@pactum.example'])
    const [toPartner] = told.filter((mail) => mail.to === 'dev@market.example')
    expect(toPartner?.subject).toBe(`Webhook endpoint switched off: ${receiver.url}`)
    expect(toPartner?.text).toContain(`POST /api/v1/partner/webhook_endpoints/${id}/enable`)
    expect(toPartner?.text).toContain('every attempt failed for three days (last: HTTP 500)')
    expect(await db.selectFrom('webhook_deliveries').select('status').orderBy('sequence').execute()).toEqual([
      { status: 'failed' },
      { status: 'pending' },
    ])
    // Nothing is tried while it is disabled.
    const tried = (await db.selectFrom('webhook_attempts').select('id').execute()).length
    await settle(6 * 3600)
    expect((await db.selectFrom('webhook_attempts').select('id').execute()).length).toBe(tried)

    receiver.failNoMore()
    const enabled = await partner('POST', `/partner/webhook_endpoints/${id}/enable`)
    expect(enabled.json()).toMatchObject({ id, disabled_at: null })
    await settle()
    expect(verified(receiver.received, secret, { clockMoved: true }).map((event) => event.type)).toEqual([
      'transaction.created',
      'transaction.joined',
    ])
  })

  it('forgets events older than the feed’s 30 days, but a resting sale goes on with its own sequence', async () => {
    const { testApp, clock, call, partner, receiver, settle } = await start()
    const { secret } = await register(partner, receiver.url)
    const resting = await joinedSale(call, {}, { clientId: 'market' })
    await settle()
    const { db } = testApp.app.services
    const old = new Date(clock.now().getTime() - 31 * 86_400_000)
    await db.updateTable('partner_events').set({ created_at: old }).execute()
    const fresh = await joinedSale(call, {}, { clientId: 'market' })
    await settle()

    expect(await purgeExpiredPartnerEvents(db, clock.now())).toBe(1)
    const kept = await db.selectFrom('partner_events').select(['transaction_id', 'sequence']).orderBy('position').execute()
    expect(kept).toEqual([
      { transaction_id: resting.id, sequence: 2 },
      { transaction_id: fresh.id, sequence: 1 },
      { transaction_id: fresh.id, sequence: 2 },
    ])
    // The kept row numbers the next event; the feed shows 30 days only.
    await payByCard(call, resting.id)
    await settle()
    const feed = (await partner('GET', '/partner/events')).json<{ events: Delivered[] }>().events
    expect(feed.map((event) => [event.data.transaction.id, event.data.sequence])).toEqual([
      [fresh.id, 1],
      [fresh.id, 2],
      [resting.id, 3],
    ])
    // The kept row was needed only until a newer event numbered after it.
    expect(await purgeExpiredPartnerEvents(db, clock.now())).toBe(1)
    expect(await purgeExpiredPartnerEvents(db, clock.now())).toBe(0)
    expect(
      verified(receiver.received, secret)
        .filter((event) => event.data.transaction.id === resting.id)
        .map((event) => event.data.sequence),
    ).toEqual([1, 2, 3])
    await verifyLedger(db)
  })

  it('lets a partner read its transactions as the webhooks carry them, never another client’s', async () => {
    const { call, partner } = await start()
    const first = await joinedSale(call, {}, { clientId: 'market' })
    const second = await joinedSale(call, {}, { clientId: 'market' })
    await payByCard(call, second.id)
    const ownApp = await joinedSale(call)
    const listed = await partner('GET', '/partner/transactions')
    expect(listed.statusCode).toBe(200)
    expect(listed.json<Array<{ id: string; status: string }>>().map((sale) => [sale.id, sale.status])).toEqual([
      [second.id, 'paid'],
      [first.id, 'joined'],
    ])
    const paged = await partner('GET', `/partner/transactions?after_id=${second.id}&limit=1`)
    expect(paged.json<Array<{ id: string }>>().map((sale) => sale.id)).toEqual([first.id])
    expect((await partner('GET', '/partner/transactions?status=paid')).json<unknown[]>()).toHaveLength(1)
    const one = await partner('GET', `/partner/transactions/${second.id}`)
    expect(one.json()).toMatchObject({ id: second.id, status: 'paid', client_id: 'market', join_code: null, available_actions: [] })
    expect((await partner('GET', `/partner/transactions/${ownApp.id}`)).statusCode).toBe(404)
  })

  it('shows an admin each delivery with its last attempt, and replays one event or a range', async () => {
    const { testApp, call, partner, receiver, settle } = await start({ failFirst: 1 })
    const { id, secret } = await register(partner, receiver.url)
    const admin = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { admin: { admin: true } }))
    const before = testApp.app.services.clock.now()
    await joinedSale(call, {}, { clientId: 'market' })
    await settle()
    await settle(10)
    const deliveries = await admin('admin', 'GET', `/api/v1/admin/clients/market/webhook_endpoints/${id}/deliveries`)
    expect(deliveries.status).toBe(200)
    expect(deliveries.body).toEqual([
      expect.objectContaining({ type: 'transaction.joined', sequence: 2, status: 'delivered', attempts: 1, next_attempt_at: null }),
      expect.objectContaining({
        type: 'transaction.created',
        sequence: 1,
        status: 'delivered',
        attempts: 2,
        last_attempt: expect.objectContaining({ status_code: 204, error: null }),
      }),
    ])
    const created = deliveries.body[1].event_id as string
    // What the console shows as the request is the body the receiver got, byte for byte.
    const receivedBody = receiver.received.find(({ headers }) => headers['webhook-id'] === created)?.body
    expect(deliveries.body[1].request_body).toBe(receivedBody)
    receiver.received.length = 0

    const one = await admin('admin', 'POST', `/api/v1/admin/clients/market/webhook_endpoints/${id}/replay`, { event_ids: [created] })
    expect(one.body).toEqual({ replayed: 1 })
    await settle()
    expect(verified(receiver.received, secret, { clockMoved: true }).map((event) => event.id)).toEqual([created])

    receiver.received.length = 0
    const range = await admin('admin', 'POST', `/api/v1/admin/clients/market/webhook_endpoints/${id}/replay`, {
      from: before.toISOString(),
      to: testApp.app.services.clock.now().toISOString(),
    })
    expect(range.body).toEqual({ replayed: 2 })
    await settle()
    expect(verified(receiver.received, secret, { clockMoved: true }).map((event) => event.data.sequence)).toEqual([1, 2])
    const refused = await admin('admin', 'POST', `/api/v1/admin/clients/market/webhook_endpoints/${id}/replay`, {
      event_ids: [created],
      from: before.toISOString(),
    })
    expect(refused.status).toBe(400)
  })

  it('lets a partner list and delete its endpoints, never another client’s', async () => {
    const { testApp, partner, receiver } = await start()
    const { id } = await register(partner, receiver.url)
    expect((await partner('GET', '/partner/webhook_endpoints')).json()).toEqual([
      { id, url: receiver.url, event_types: [], disabled_at: null, disabled_reason: null, created_at: expect.any(String) },
    ])
    const { db } = testApp.app.services
    await db.insertInto('clients').values({ id: 'other', name: 'Other' }).execute()
    const theirs = crypto.randomUUID()
    await db
      .insertInto('webhook_endpoints')
      .values({
        id: theirs,
        client_id: 'other',
        url: receiver.url,
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        created_at: new Date(),
      })
      .execute()
    expect((await partner('DELETE', `/partner/webhook_endpoints/${theirs}`)).statusCode).toBe(404)
    expect((await partner('DELETE', `/partner/webhook_endpoints/${id}`)).statusCode).toBe(204)
    expect((await partner('GET', '/partner/webhook_endpoints')).json()).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { createF2fSale } from '../../testing/f2f-sale-steps.ts'
import { confirmDelivery, confirmPayment, createSale, joinedSale, payByCard, submitCard, track } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { appPerTest } from '../../testing/app-per-test.ts'

const testApps = appPerTest()

async function start(env: Record<string, string> = {}) {
  const clock = new TestClock(new Date('2026-11-20T10:00:00Z'))
  const testApp = await testApps.open({ clock, env })
  const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, admin: { admin: true } })
  return { app: testApp.app, clock, call: apiCaller(testApp.app, tokens) }
}

type Call = Awaited<ReturnType<typeof start>>['call']

async function idsOf(call: Call, query: string): Promise<string[]> {
  const answer = await call('admin', 'GET', `/api/v1/admin/transactions${query}`)
  expect(answer.status).toBe(200)
  return answer.body.map((transaction: { id: string }) => transaction.id)
}

/** A complained online sale: paid, tracked, delivered, then the buyer complained. */
async function complainedSale(call: Call) {
  const { id } = await joinedSale(call)
  await payByCard(call, id)
  await track(call, id, { carrier: 'ups', tracking_code: '1Z999' })
  await confirmDelivery(call, id)
  const complained = await call('buyer', 'POST', `/api/v1/transactions/${id}/complain_with_description`, {
    description: 'Not as described',
  })
  expect(complained.body.status).toBe('complained')
  return id
}

describe('admin console calls refuse everyone else before reading the input', () => {
  const calls = [
    '/api/v1/admin/transactions?type=nobody&created_from=yesterday',
    '/api/v1/admin/transactions/not-an-id',
    '/api/v1/admin/audit_log?limit=-1&after_id=x',
    '/api/v1/admin/clients',
  ]

  it('answers 401 signed out and 403 not_admin to a non-admin', async () => {
    const { call } = await start()
    for (const url of calls) {
      expect(await call(null, 'GET', url)).toMatchObject({ status: 401, body: { code: 'unauthenticated' } })
      expect(await call('seller', 'GET', url)).toMatchObject({ status: 403, body: { code: 'not_admin' } })
    }
  })
})

describe('GET /admin/transactions', () => {
  it('lists both kinds and filters by status, kind, currency, client and creation date', async () => {
    const { app, clock, call } = await start()
    await app.services.db.insertInto('clients').values({ id: 'market-partner', name: 'Market partner' }).execute()
    const online = await joinedSale(call)
    await clock.advance(app, 2 * 24 * 3600)
    const pounds = await createSale(call, { currency: 'gbp', price: 20_000 }, { clientId: 'market-partner' })
    await clock.advance(app, 2 * 24 * 3600)
    const f2f = await createF2fSale(call)

    expect(await idsOf(call, '')).toEqual([f2f.id, pounds.id, online.id])
    expect(await idsOf(call, '?type=f2f')).toEqual([f2f.id])
    expect(await idsOf(call, '?type=f')).toEqual([f2f.id])
    expect(await idsOf(call, '?type=online')).toEqual([pounds.id, online.id])
    expect(await idsOf(call, '?status=joined')).toEqual([online.id])
    expect(await idsOf(call, '?currency=gbp')).toEqual([pounds.id])
    expect(await idsOf(call, '?client_id=market-partner')).toEqual([pounds.id])
    // Inclusive days, in UTC: 20, 22 and 24 November.
    expect(await idsOf(call, '?created_from=2026-11-22&created_to=2026-11-22')).toEqual([pounds.id])
    expect(await idsOf(call, '?created_from=2026-11-21')).toEqual([f2f.id, pounds.id])
    expect(await idsOf(call, '?created_to=2026-11-22')).toEqual([pounds.id, online.id])
    expect(await idsOf(call, '?type=online&currency=eur&status=created')).toEqual([])
  })

  it('finds a transaction by part of its id, its join code as people write it, or a party’s e-mail', async () => {
    const { call } = await start()
    const joined = await joinedSale(call)
    const open = await createSale(call, { description: 'A red lamp' })
    expect(await idsOf(call, `?search=${joined.id.slice(-12)}`)).toEqual([joined.id])
    const written = `${open.joinCode.slice(0, 4).toLowerCase()}-${open.joinCode.slice(4)}`
    expect(await idsOf(call, `?search=${encodeURIComponent(written)}`)).toEqual([open.id])
    // A code already used still finds the sale it was joined with.
    expect(await idsOf(call, `?search=${joined.joinCode}`)).toEqual([joined.id])
    // Only the joined sale has a buyer; both have the seller.
    expect(await idsOf(call, '?search=BUYER%40example')).toEqual([joined.id])
    expect(await idsOf(call, '?search=seller%40example.com')).toEqual([open.id, joined.id])
    expect(await idsOf(call, '?search=nobody%40example.com')).toEqual([])
  })

  it('pages newest first with after_id, the last id of the previous page', async () => {
    const { call } = await start()
    const created = [(await createSale(call)).id, (await createSale(call)).id, (await createSale(call)).id].reverse()
    const first = await idsOf(call, '?limit=2')
    const second = await idsOf(call, `?limit=2&after_id=${first.at(-1)}`)
    expect([...first, ...second]).toEqual(created)
    expect(await idsOf(call, `?limit=2&after_id=${second.at(-1)}`)).toEqual([])
  })

  it('names the bad filter', async () => {
    const { call } = await start()
    for (const [query, field] of [
      ['type=barter', 'querystring.type'],
      ['status=lost', 'querystring.status'],
      ['currency=EURO', 'querystring.currency'],
      ['created_from=22.11.2026', 'querystring.created_from'],
      ['created_to=2026-02-30', 'querystring.created_to'],
      ['created_to=0000-00-00', 'querystring.created_to'],
    ]) {
      const answer = await call('admin', 'GET', `/api/v1/admin/transactions?${query}`)
      expect(answer).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { fields: [{ field }] } } })
    }
    expect((await call('admin', 'GET', '/api/v1/admin/transactions?limit=1001')).body.code).toBe('invalid_limit')
    expect((await call('admin', 'GET', '/api/v1/admin/transactions?after_id=x')).body.code).toBe('invalid_after_id')
  })
})

describe('GET /admin/transactions/:id', () => {
  it('shows the history, ledger entries, provider events and e-mails of a sale an admin refunded', async () => {
    const { app, call } = await start()
    const id = await complainedSale(call)
    const refunded = await call('admin', 'POST', `/api/v1/admin/transactions/${id}/release_funds?to=buyer`, {
      reason: 'Photos show the damage',
    })
    expect(refunded.body.status).toBe('payment_refunded')
    await app.services.jobs.runDue()

    const detail = await call('admin', 'GET', `/api/v1/admin/transactions/${id}`)
    expect(detail.status).toBe(200)
    const body = detail.body
    expect(body).toMatchObject({
      transaction: { id, status: 'payment_refunded' },
      buyer_email: 'buyer@example.com',
      seller_email: 'seller@example.com',
    })
    expect(body.events.map((event: { event: string }) => event.event)).toEqual([
      'create',
      'join',
      'payment_intent_opened',
      'payment_succeeded',
      'track',
      'confirm_delivery',
      'complain',
      'release_funds',
    ])
    expect(body.events.at(-1)).toMatchObject({
      actor_kind: 'admin',
      actor_email: 'admin@example.com',
      reason: 'Photos show the damage',
      from_status: 'complained',
      to_status: 'payment_refunded',
    })
    // The hold, then the refund of everything the buyer paid; each entry balances.
    expect(body.ledger_entries.map((entry: { kind: string }) => entry.kind)).toEqual(['hold', 'refund'])
    for (const entry of body.ledger_entries as Array<{ postings: Array<{ amount: number }> }>) {
      expect(entry.postings.reduce((sum, posting) => sum + posting.amount, 0)).toBe(0)
    }
    expect(body.ledger_entries[1].postings).toContainEqual({ account: `escrow:${id}`, amount: -10_340, currency: 'eur' })
    expect(body.provider_events.length).toBeGreaterThan(0)
    expect(body.provider_events.map((event: { type: string }) => event.type)).toContain('payment_intent.succeeded')
    expect(body.notifications.length).toBeGreaterThan(0)
    expect(body.notifications).toContainEqual(
      expect.objectContaining({ recipient_role: 'buyer', status: 'sent', sent_at: expect.any(String) }),
    )
  })

  it('answers 404 for an unknown or malformed id', async () => {
    const { call } = await start()
    expect((await call('admin', 'GET', '/api/v1/admin/transactions/0190f0a0-0000-7000-8000-000000000000')).status).toBe(404)
    expect((await call('admin', 'GET', '/api/v1/admin/transactions/nope')).body.code).toBe('not_found')
  })
})

describe('GET /admin/audit_log', () => {
  it('lists only admin actions, newest first, paged by after_id', async () => {
    const { call } = await start()
    const first = await complainedSale(call)
    const second = await complainedSale(call)
    await call('admin', 'POST', `/api/v1/admin/transactions/${first}/release_funds?to=seller`, { reason: 'First one' })
    await call('admin', 'POST', `/api/v1/admin/transactions/${second}/release_funds?to=buyer`, { reason: 'Second one' })

    const page = await call('admin', 'GET', '/api/v1/admin/audit_log?limit=1')
    expect(page.body).toEqual([
      expect.objectContaining({ transaction_id: second, reason: 'Second one', actor_email: 'admin@example.com', event: 'release_funds' }),
    ])
    const next = await call('admin', 'GET', `/api/v1/admin/audit_log?limit=1&after_id=${page.body[0].id}`)
    expect(next.body).toEqual([expect.objectContaining({ transaction_id: first, reason: 'First one', to_status: 'funds_released' })])
    expect((await call('admin', 'GET', `/api/v1/admin/audit_log?after_id=${next.body[0].id}`)).body).toEqual([])
    expect((await call('admin', 'GET', '/api/v1/admin/audit_log?after_id=x')).body.code).toBe('validation_failed')
  })

  const byAdmin = { actor_kind: 'admin', actor_email: 'admin@example.com', reconciliation_difference: null }

  it("shows each decision on a card dispute and on a fraud warning with the admin and the reason, an acceptance whose provider's news came first too", async () => {
    const { app, clock, call } = await start({ SANDBOX_DISPUTE_DELAY_SECONDS: '10' })
    const settle = (seconds = 1) => clock.advance(app, seconds)
    const held = await joinedSale(call)
    await payByCard(call, held.id)
    const dispute = (await call('admin', 'POST', '/api/v1/admin/sandbox/disputes', { transaction_id: held.id })).body.id
    await settle()
    const evidence = await call('admin', 'POST', `/api/v1/admin/chargebacks/${dispute}/evidence`, { reason: 'Tracked and delivered' })
    expect(evidence.status).toBe(200)
    // The provider's webhook of the loss is applied before its answer to the acceptance is.
    const payments = app.services.payments
    const accept = payments.acceptDispute.bind(payments)
    payments.acceptDispute = async (id) => {
      const accepted = await accept(id)
      await app.services.jobs.runDue()
      return accepted
    }
    const accepted = await call('admin', 'POST', `/api/v1/admin/chargebacks/${dispute}/accept`, { reason: 'The buyer never got it' })
    expect(accepted.body).toMatchObject({ status: 'lost', transaction_status: 'payment_refunded' })

    const released = await joinedSale(call, { price: 5_000 })
    await payByCard(call, released.id)
    await track(call, released.id, { carrier: 'dhl', tracking_code: 'JD0005' })
    await confirmDelivery(call, released.id)
    await call('buyer', 'POST', `/api/v1/transactions/${released.id}/end_complaint_period`)
    await settle(60)
    const lost = (await call('admin', 'POST', '/api/v1/admin/sandbox/disputes', { transaction_id: released.id })).body.id
    await call('admin', 'POST', `/api/v1/admin/sandbox/disputes/${lost}/decide`, { outcome: 'lost' })
    await settle()
    const recovered = await call('admin', 'POST', `/api/v1/admin/chargebacks/${lost}/recover`, {
      amount: 1_000,
      reason: 'Seller admitted it',
    })
    expect(recovered.status).toBe(200)

    const warned = await joinedSale(call, { price: 3_000 })
    const { intentId } = await submitCard(call, warned.id, '4000000000005423')
    await confirmPayment(call, warned.id, intentId)
    await settle(11)
    const cleared = await call('admin', 'POST', `/api/v1/admin/transactions/${warned.id}/clear_fraud_warning`, {
      reason: 'Card owner called',
    })
    expect(cleared.status).toBe(200)

    const log = (await call('admin', 'GET', '/api/v1/admin/audit_log')).body
    const lines = log.map((line: Record<string, unknown>) => [line.transaction_id, line.event, line.reason])
    expect(lines).toEqual([
      [warned.id, 'clear_fraud_warning', 'Card owner called'],
      [released.id, 'recover_chargeback', 'Seller admitted it'],
      // The acceptance is written though its answer changed nothing: the webhook had ended the sale already.
      [held.id, 'chargeback_accepted', 'The buyer never got it'],
      [held.id, 'dispute_changed', 'Tracked and delivered'],
      [held.id, 'chargeback_evidence_submitted', 'Tracked and delivered'],
    ])
    for (const line of log) expect(line).toMatchObject(byAdmin)
    expect(log[2]).toMatchObject({ from_status: 'payment_refunded', to_status: 'payment_refunded' })
  })

  it('shows a reconciliation difference explained, with its day and currency, among the transactions and paged with them', async () => {
    const { call } = await start()
    const complained = await complainedSale(call)
    await call('admin', 'POST', `/api/v1/admin/transactions/${complained}/release_funds?to=seller`, {
      reason: 'Photos show it arrived whole',
    })
    // The provider took a payment whose webhook has not come yet: a charge only the provider shows.
    const unbooked = await joinedSale(call, { price: 2_000 })
    const { intentId } = await submitCard(call, unbooked.id)
    const run = await call('admin', 'POST', '/api/v1/admin/reconciliation/runs', { date: '2026-11-20' })
    const difference = run.body.differences.find((found: { provider_id: string }) => found.provider_id === intentId)
    expect(difference).toMatchObject({ kind: 'missing_in_ledger', movement: 'charge' })
    const path = `/api/v1/admin/reconciliation/differences/${difference.id}/explain`
    expect((await call('admin', 'POST', path, { reason: 'Webhook late; booked the next morning' })).status).toBe(200)
    expect((await call('admin', 'POST', path, { reason: 'again' })).status).toBe(409)

    const log = (await call('admin', 'GET', '/api/v1/admin/audit_log')).body
    expect(log).toHaveLength(2)
    expect(log[0]).toEqual({
      id: expect.any(String),
      transaction_id: null,
      reconciliation_difference: { id: difference.id, day: '2026-11-20', movement: 'charge', provider_id: intentId, currency: 'eur' },
      event: 'explain_difference',
      actor_kind: 'admin',
      actor_user_id: expect.any(String),
      actor_email: 'admin@example.com',
      reason: 'Webhook late; booked the next morning',
      from_status: 'open',
      to_status: 'explained',
      created_at: '2026-11-20T10:00:00.000Z',
    })
    expect(log[1]).toMatchObject({ ...byAdmin, transaction_id: complained, event: 'release_funds', reason: 'Photos show it arrived whole' })
    const first = (await call('admin', 'GET', '/api/v1/admin/audit_log?limit=1')).body
    expect(first.map((line: { id: string }) => line.id)).toEqual([log[0].id])
    const second = (await call('admin', 'GET', `/api/v1/admin/audit_log?limit=1&after_id=${first[0].id}`)).body
    expect(second.map((line: { id: string }) => line.id)).toEqual([log[1].id])
    expect((await call('admin', 'GET', `/api/v1/admin/audit_log?after_id=${second[0].id}`)).body).toEqual([])
  })
})

describe('GET /admin/clients', () => {
  it('lists the partner clients with how many transactions each brought', async () => {
    const { app, call } = await start()
    const { db } = app.services
    await db.insertInto('clients').values({ id: 'market-partner', name: 'Market partner', show_seller_confirm_handover: false }).execute()
    await createSale(call, {}, { clientId: 'market-partner' })
    const answer = await call('admin', 'GET', '/api/v1/admin/clients')
    expect(answer.status).toBe(200)
    expect(answer.body).toContainEqual({
      client_id: 'market-partner',
      name: 'Market partner',
      url: '/',
      background_color: '#1d3557',
      text_color: '#ffffff',
      routes: [],
      mobile_navbar_hidden: false,
      show_seller_confirm_handover: false,
      contact_email: null,
      transactions: 1,
      in_clients_file: false,
      api_key_issued_at: null,
      updated_at: expect.any(String),
    })
    // The seeded demo client comes with its configured look.
    expect(answer.body).toContainEqual(
      expect.objectContaining({ client_id: 'demo-marketplace', url: expect.stringMatching(/^https:\/\//), in_clients_file: true }),
    )
  })
})

import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { payF2fByCard } from '../../testing/f2f-sale-steps.ts'
import { payByCard, sepaProcessing } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { writtenMails } from '../../testing/written-mails.ts'
import { issueApiKey } from '../partner-clients/partner-api-key.ts'

const testApps = appPerTest()

const offer = { type: 'online', price: 10_000, currency: 'eur', description: 'A blue bicycle' }

/**
 * A partner client `market` with its API key, and the people its users
 * are: `seller@`, `buyer@` and `stranger@example.com`. The buyer's address
 * is in the company domain with `companyBuyer`, so they may pay by SEPA.
 */
async function start(options: { companyBuyer?: boolean; env?: Record<string, string> } = {}) {
  const clock = new TestClock(new Date('2026-12-06T10:00:00Z'))
  const testApp = await testApps.open({
    clock,
    env: { ...(options.companyBuyer ? { COMPANY_EMAIL_DOMAIN: 'example.com' } : {}), ...options.env },
  })
  const { db } = testApp.app.services
  await db.insertInto('clients').values({ id: 'market', name: 'The Market' }).execute()
  await db.insertInto('clients').values({ id: 'other', name: 'Other' }).execute()
  const key = await issueApiKey(db, 'market', { kind: 'operator' }, clock.now())
  const otherKey = await issueApiKey(db, 'other', { kind: 'operator' }, clock.now())
  const tokens = await partyTokens(testApp.tokenFor, {
    seller: { firstName: 'Sam' },
    buyer: { firstName: 'Bea', emailVerified: options.companyBuyer ?? false },
    stranger: {},
  })
  const call = apiCaller(testApp.app, tokens)
  const partner = (method: 'GET' | 'POST', url: string, body?: object, apiKey = key, headers: Record<string, string> = {}) =>
    call(null, method, `/api/v1${url}`, body, { 'x-pactum-api-key': apiKey, ...headers })
  const mailsTo = async (email: string) => (await writtenMails(testApp.dataDir)).filter((mail) => mail.to === email)
  return { testApp, db, clock, call, partner, key, otherKey, mailsTo, dataDir: testApp.dataDir }
}

type Context = Awaited<ReturnType<typeof start>>

const claimPath = (secret: string, role: 'buyer' | 'seller', type: 'online' | 'f2f') =>
  `/api/v1${type === 'f2f' ? '/p2p' : ''}/transactions_by_claim_secret/${secret}/claim_as_${role}`

/**
 * The invited party opens their link (the one to the sale described so, the
 * newest else) and takes their place, signed in as `role@example.com`.
 */
async function claim(context: Context, role: 'buyer' | 'seller', type: 'online' | 'f2f', description?: string) {
  const mails = (await context.mailsTo(`${role}@example.com`)).filter((mail) => !description || mail.subject.includes(description))
  const match = /\/join-guest-transaction(?:-as-seller)?\/([A-Za-z0-9_-]+)\/(online|f2f)/.exec(mails.at(-1)?.text ?? '')
  if (!match) throw new Error(`no invitation to ${role}@example.com`)
  expect(match[2]).toBe(type)
  return context.call(role, 'POST', claimPath(match[1]!, role, type))
}

/** The other party takes their place with the code the partner showed on its site. */
async function joinByCode(context: Context, role: 'buyer' | 'seller', type: 'online' | 'f2f', code: string) {
  return type === 'f2f'
    ? context.call(role, 'POST', `/api/v1/p2p/transactions_by_join_code/${code}/join`)
    : context.call(role, 'PUT', `/api/v1/transactions?join_code=${code}`)
}

describe('a partner creating a transaction on behalf of its users', () => {
  for (const type of ['online', 'f2f'] as const) {
    it(`invites only the seller (${type}): a claim link for them, a join code for the buyer, and the sale is joined once both are in`, async () => {
      const context = await start()
      const { partner, call, mailsTo } = context
      const created = await partner('POST', '/partner/transactions', { ...offer, type, seller_email: 'Seller@Example.com' })
      expect(created).toMatchObject({
        status: 201,
        body: {
          type,
          status: 'created',
          client_id: 'market',
          role: null,
          available_actions: [],
          seller_email: 'seller@example.com',
          buyer_email: null,
          buyer_id: null,
          seller_id: null,
        },
      })
      const { id, join_code: code } = created.body as { id: string; join_code: string }
      expect(code).toMatch(/^[A-HJ-KM-NP-Z2-9]{8}$/)
      expect(await mailsTo('seller@example.com')).toHaveLength(1)
      expect(await mailsTo('buyer@example.com')).toHaveLength(0)
      // The same view as the partner's read, which never shows the code.
      const read = await partner('GET', `/partner/transactions/${id}`)
      expect(read.body).toMatchObject({ id, status: 'created', join_code: null })

      // The buyer comes first, with the code: their place is taken, the sale waits for the seller.
      const joined = await joinByCode(context, 'buyer', type, code)
      expect(joined).toMatchObject({ status: 200, body: { id, status: 'created', role: 'buyer' } })
      expect(await joinByCode(context, 'buyer', type, code)).toMatchObject({ status: 200, body: { id } })
      expect(await joinByCode(context, 'stranger' as 'buyer', type, code)).toMatchObject({
        status: 404,
        body: { code: 'join_code_not_found' },
      })

      const claimed = await claim(context, 'seller', type)
      expect(claimed).toMatchObject({ status: 200, body: { id, status: 'joined', role: 'seller' } })
      await context.testApp.app.services.jobs.runDue()
      expect((await mailsTo('buyer@example.com')).map((mail) => mail.subject).join('\n')).toMatch(/joined/i)

      const paid = type === 'f2f' ? (await payF2fByCard(call, id, 'deposit')).transaction : (await payByCard(call, id)).transaction
      expect(paid).toMatchObject({ status: type === 'f2f' ? 'deposit_paid' : 'paid' })
    })

    it(`invites only the buyer (${type}): the seller takes their place with the code`, async () => {
      const context = await start()
      const created = await context.partner('POST', '/partner/transactions', { ...offer, type, buyer_email: 'buyer@example.com' })
      expect(created).toMatchObject({ status: 201, body: { seller_email: null, buyer_email: 'buyer@example.com' } })
      expect(await claim(context, 'buyer', type)).toMatchObject({ status: 200, body: { status: 'created', role: 'buyer' } })
      // The invited buyer cannot take the other place too.
      expect(await joinByCode(context, 'buyer', type, created.body.join_code)).toMatchObject({
        status: 403,
        body: { code: 'cannot_join_own_transaction' },
      })
      const joined = await joinByCode(context, 'seller', type, created.body.join_code)
      expect(joined).toMatchObject({ status: 200, body: { status: 'joined', role: 'seller' } })
    })

    it(`invites both (${type}): two claim links and no join code`, async () => {
      const context = await start()
      const created = await context.partner('POST', '/partner/transactions', {
        ...offer,
        type,
        seller_email: 'seller@example.com',
        buyer_email: 'buyer@example.com',
      })
      expect(created).toMatchObject({ status: 201, body: { join_code: null, seller_email: 'seller@example.com' } })
      expect(await claim(context, 'buyer', type)).toMatchObject({ status: 200, body: { status: 'created' } })
      expect(await claim(context, 'seller', type)).toMatchObject({ status: 200, body: { status: 'joined' } })
    })
  }

  it('keeps /partner/guest_transactions as the same call with both addresses required, answering what it always did', async () => {
    const { partner } = await start()
    const both = { ...offer, seller_email: 'seller@example.com', buyer_email: 'buyer@example.com' }
    const created = await partner('POST', '/partner/guest_transactions', both)
    expect(created.status).toBe(201)
    expect(Object.keys(created.body as object).sort()).toEqual(
      ['id', 'type', 'status', 'client_id', 'price', 'charge', 'currency', 'description', 'buyer_email', 'seller_email'].sort(),
    )
    expect(await partner('POST', '/partner/guest_transactions', { ...offer, seller_email: 'seller@example.com' })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: { fields: [{ field: 'body.buyer_email' }] } },
    })
  })

  it('honours an Idempotency-Key: a retry answers as the first call did, a changed body is refused, and another client’s key is its own', async () => {
    const { partner, otherKey, mailsTo } = await start()
    const body = { ...offer, seller_email: 'seller@example.com' }
    const send = (payload: object, apiKey?: string) =>
      partner('POST', '/partner/transactions', payload, apiKey, { 'idempotency-key': 'order-4711' })
    const first = await send(body)
    expect(first.status).toBe(201)
    const retry = await send(body)
    expect(retry).toMatchObject({ status: 201, body: { id: first.body.id, join_code: first.body.join_code } })
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(await mailsTo('seller@example.com')).toHaveLength(1)
    expect(await send({ ...body, price: 12_000 })).toMatchObject({ status: 422, body: { code: 'idempotency_key_reused' } })
    expect((await send(body, otherKey)).body.client_id).toBe('other')

    const cancel = () =>
      partner('POST', `/partner/transactions/${first.body.id}/cancel`, undefined, undefined, { 'idempotency-key': 'cancel-4711' })
    expect(await cancel()).toMatchObject({ status: 200, body: { status: 'cancelled' } })
    expect(await cancel()).toMatchObject({ status: 200, body: { status: 'cancelled' } })
  })

  it('names the body field it refuses', async () => {
    const { partner, mailsTo } = await start()
    const refusals: Array<[object, string]> = [
      [offer, 'body.seller_email'],
      [{ ...offer, seller_email: 'same@example.com', buyer_email: 'same@example.com' }, 'body.seller_email'],
      [{ ...offer, buyer_email: 'not an address' }, 'body.buyer_email'],
      [{ ...offer, seller_email: 'seller@example.com', price: 1.5 }, 'body.price'],
      [{ ...offer, seller_email: 'seller@example.com', type: 'auction' }, 'body.type'],
    ]
    for (const [body, field] of refusals) {
      const refused = await partner('POST', '/partner/transactions', body)
      expect(refused, field).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
      expect(
        (refused.body.details.fields as Array<{ field: string }>).map((f) => f.field),
        field,
      ).toContain(field)
    }
    expect(await partner('POST', '/partner/transactions', { ...offer, seller_email: 'seller@example.com', price: 50 })).toMatchObject({
      status: 400,
      body: { code: 'price_too_low' },
    })
    expect(await mailsTo('seller@example.com')).toHaveLength(0)
  })

  it('counts its invitations as today: the address’s day is ten, the client’s hour its own limit', async () => {
    const { partner, mailsTo } = await start({ env: { INVITATIONS_PER_CLIENT_PER_HOUR: '12' } })
    const statuses: number[] = []
    for (let sale = 0; sale < 11; sale++) {
      statuses.push((await partner('POST', '/partner/transactions', { ...offer, seller_email: 'seller@example.com' })).status)
    }
    expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true)
    const past = await partner('POST', '/partner/transactions', { ...offer, seller_email: 'seller@example.com' })
    expect(past).toMatchObject({ status: 429, body: { code: 'too_many_invitations_to_recipient' } })
    expect(past.headers['retry-after']).toBeDefined()
    expect(await mailsTo('seller@example.com')).toHaveLength(10)
    // Ten sent, two more fit in the client's hour, not three.
    expect(
      await partner('POST', '/partner/transactions', { ...offer, seller_email: 'a@example.com', buyer_email: 'b@example.com' }),
    ).toMatchObject({ status: 201 })
    expect(await partner('POST', '/partner/transactions', { ...offer, seller_email: 'c@example.com' })).toMatchObject({
      status: 429,
      body: { code: 'too_many_invitations', details: { reason: 'sender_per_hour' } },
    })
  })

  it('refuses a missing or wrong key 401 before reading the body, counts wrong keys per address, and a client’s calls per client', async () => {
    const { call, partner } = await start({ env: { PARTNER_REQUESTS_PER_MINUTE: '3' } })
    for (const url of ['/api/v1/partner/transactions', `/api/v1/partner/transactions/${crypto.randomUUID()}/cancel`]) {
      expect(await call(null, 'POST', url, { broken: true })).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } })
      expect(await call(null, 'POST', url, { broken: true }, { 'x-pactum-api-key': 'market.guessed' })).toMatchObject({
        status: 401,
        body: { code: 'invalid_api_key' },
      })
    }
    const statuses: number[] = []
    for (let call = 0; call < 4; call++) statuses.push((await partner('POST', '/partner/transactions', { broken: true })).status)
    expect(statuses).toEqual([400, 400, 400, 429])
  })

  it('counts wrong keys per address, so a key cannot be guessed at speed', async () => {
    const { call } = await start()
    const statuses: number[] = []
    for (let attempt = 0; attempt < 31; attempt++) {
      statuses.push(
        (await call(null, 'POST', '/api/v1/partner/transactions', offer, { 'x-pactum-api-key': `market.guess${attempt}` })).status,
      )
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true)
    expect(statuses[30]).toBe(429)
  })
})

describe('a partner calling off a transaction nobody has paid', () => {
  it('cancels an online sale before anyone claimed it, and one both parties are in, telling each party in, as the partner', async () => {
    const context = await start()
    const { partner, db, mailsTo } = context
    const unclaimed = await partner('POST', '/partner/transactions', { ...offer, seller_email: 'seller@example.com' })
    const cancelled = await partner('POST', `/partner/transactions/${unclaimed.body.id}/cancel`)
    expect(cancelled).toMatchObject({ status: 200, body: { id: unclaimed.body.id, status: 'cancelled', join_code: null } })
    // The code is spent: the buyer the partner showed it to cannot join any more.
    expect(await joinByCode(context, 'buyer', 'online', unclaimed.body.join_code)).toMatchObject({ status: 404 })
    expect(await claim(context, 'seller', 'online', 'A blue bicycle')).toMatchObject({ status: 409, body: { code: 'already_cancelled' } })

    const both = await partner('POST', '/partner/transactions', {
      ...offer,
      description: 'A red scooter',
      seller_email: 'seller@example.com',
      buyer_email: 'buyer@example.com',
    })
    expect(await claim(context, 'seller', 'online', 'A red scooter')).toMatchObject({ status: 200 })
    expect(await claim(context, 'buyer', 'online', 'A red scooter')).toMatchObject({ status: 200 })
    const again = await partner('POST', `/partner/transactions/${both.body.id}/cancel`)
    expect(again).toMatchObject({ status: 200, body: { status: 'cancelled' } })
    await context.testApp.app.services.jobs.runDue()
    for (const party of ['seller', 'buyer']) {
      const subjects = (await mailsTo(`${party}@example.com`)).map((mail) => mail.subject)
      expect(subjects).toContain('“A red scooter” was called off by the marketplace')
    }

    const events = await db
      .selectFrom('transaction_events')
      .select(['event', 'actor_kind', 'actor_user_id', 'from_status', 'to_status'])
      .where('transaction_id', '=', both.body.id)
      .where('event', '=', 'cancel')
      .execute()
    expect(events).toEqual([{ event: 'cancel', actor_kind: 'partner', actor_user_id: null, from_status: 'joined', to_status: 'cancelled' }])
    const creation = await db
      .selectFrom('transaction_events')
      .select('actor_kind')
      .where('transaction_id', '=', both.body.id)
      .where('event', '=', 'create')
      .executeTakeFirstOrThrow()
    expect(creation.actor_kind).toBe('partner')
    const partnerEvents = await db
      .selectFrom('partner_events')
      .select('type')
      .where('transaction_id', '=', both.body.id)
      .orderBy('sequence')
      .execute()
    expect(partnerEvents.map((event) => event.type)).toEqual(['transaction.created', 'transaction.joined', 'transaction.cancelled'])
    // Cancelled once: a second call is the engine's refusal.
    expect(await partner('POST', `/partner/transactions/${both.body.id}/cancel`)).toMatchObject({
      status: 409,
      body: { code: 'already_cancelled' },
    })
  })

  it('cancels a face-to-face sale before the deposit with the fixed text, and refuses once the deposit is paid', async () => {
    const context = await start()
    const { partner, call } = context
    const created = await partner('POST', '/partner/transactions', { ...offer, type: 'f2f', seller_email: 'seller@example.com' })
    await claim(context, 'seller', 'f2f')
    await joinByCode(context, 'buyer', 'f2f', created.body.join_code)
    const cancelled = await partner('POST', `/partner/transactions/${created.body.id}/cancel`)
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled', cancellation: { description: 'cancelled by partner' } } })

    const paid = await partner('POST', '/partner/transactions', {
      ...offer,
      type: 'f2f',
      description: 'A lamp',
      buyer_email: 'buyer@example.com',
    })
    await claim(context, 'buyer', 'f2f')
    await joinByCode(context, 'seller', 'f2f', paid.body.join_code)
    await payF2fByCard(call, paid.body.id, 'deposit')
    expect(await partner('POST', `/partner/transactions/${paid.body.id}/cancel`)).toMatchObject({
      status: 409,
      body: { code: 'already_paid' },
    })
  })

  it('refuses once paid, and while a SEPA payment is on its way', async () => {
    const context = await start({ companyBuyer: true })
    const { partner, call } = context
    const sale = async (description: string) => {
      const created = await partner('POST', '/partner/transactions', { ...offer, description, seller_email: 'seller@example.com' })
      expect(await claim(context, 'seller', 'online', description)).toMatchObject({ status: 200 })
      expect(await joinByCode(context, 'buyer', 'online', created.body.join_code)).toMatchObject({ body: { status: 'joined' } })
      return created.body.id as string
    }
    const paid = await sale('Paid by card')
    await payByCard(call, paid)
    expect(await partner('POST', `/partner/transactions/${paid}/cancel`)).toMatchObject({ status: 409, body: { code: 'already_paid' } })
    const processing = await sale('Paid by SEPA')
    await sepaProcessing(call, processing)
    expect(await partner('POST', `/partner/transactions/${processing}/cancel`)).toMatchObject({
      status: 409,
      body: { code: 'payment_in_progress' },
    })
    expect((await partner('GET', `/partner/transactions/${processing}`)).body).toMatchObject({ status: 'joined' })
  })

  it('answers 404 for another client’s transaction and an unknown one, and cancels nothing', async () => {
    const { partner, otherKey } = await start()
    const created = await partner('POST', '/partner/transactions', { ...offer, seller_email: 'seller@example.com' })
    expect(await partner('POST', `/partner/transactions/${created.body.id}/cancel`, undefined, otherKey)).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    })
    expect(await partner('POST', `/partner/transactions/${crypto.randomUUID()}/cancel`)).toMatchObject({ status: 404 })
    expect((await partner('GET', `/partner/transactions/${created.body.id}`)).body).toMatchObject({ status: 'created' })
  })
})

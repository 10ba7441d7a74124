import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { issueApiKey } from '../partner-clients/partner-api-key.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { createGuestSale } from '../../testing/guest-sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { writtenMails } from '../../testing/written-mails.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

async function start(env: Record<string, string> = {}) {
  const clock = new TestClock(new Date('2026-11-27T10:00:00Z'))
  testApp = await createTestApp({ env, clock })
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: {}, other: {}, victim: {} })
  const call = apiCaller(testApp.app, tokens)
  const quote = (await call('seller', 'GET', '/api/v1/charge?price=10000&currency=eur&payment_method=card')).body
  const online = {
    role: 'seller',
    price: 10_000,
    currency: 'eur',
    description: 'A green lamp',
    charge: quote.charge,
    charge_calculator_version: quote.charge_calculator_version,
    payment_method: 'card',
  }
  const invite = (who: 'seller' | 'buyer' | 'other' | 'victim', email: string) =>
    call(who, 'POST', '/api/v1/me/transactions', { ...online, counterparty_email: email })
  const mailsTo = async (email: string) => (await writtenMails(testApp!.dataDir)).filter((mail) => mail.to === email)
  const transactions = async () => (await testApp!.database.db.selectFrom('transactions').select('id').execute()).length
  return { app: testApp.app, db: testApp.database.db, dataDir: testApp.dataDir, clock, call, online, invite, mailsTo, transactions }
}

/** The Market as a partner client with an operator key: the headers its calls carry. */
async function marketClientHeaders(db: TestApp['database']['db']) {
  await db.insertInto('clients').values({ id: 'market', name: 'The Market' }).execute()
  return { 'x-pactum-api-key': await issueApiKey(db, 'market', { kind: 'operator' }, new Date()) }
}

/** A partner's guest sale between two addresses, as the partner API takes it. */
const stallSale = {
  type: 'online',
  buyer_email: 'b1@example.com',
  seller_email: 's1@example.com',
  price: 10_000,
  currency: 'eur',
  description: 'A stall sale',
}

describe('invitations by e-mail, counted per sender and per address', () => {
  it('stop the probe: 40 invitations to one address send the day’s ten, and refuse the rest 429 with Retry-After', async () => {
    const { invite, mailsTo, transactions } = await start()
    const statuses: number[] = []
    let refused: Awaited<ReturnType<typeof invite>> | undefined
    for (let attempt = 0; attempt < 40; attempt++) {
      const answer = await invite(attempt % 2 === 0 ? 'seller' : 'other', 'victim@example.com')
      statuses.push(answer.status)
      if (answer.status === 429) refused = answer
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(10)
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true)
    expect(refused?.body).toMatchObject({
      code: 'too_many_invitations_to_recipient',
      details: { reason: 'recipient_per_day', email: 'victim@example.com', limit: 10 },
    })
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(80_000)
    expect(await mailsTo('victim@example.com')).toHaveLength(10)
    expect(await transactions()).toBe(10)
  })

  it('holds when invitations to one address race from several senders at once', async () => {
    const { invite, mailsTo, transactions } = await start({ INVITATIONS_PER_RECIPIENT_PER_DAY: '3' })
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) => invite((['seller', 'other', 'buyer'] as const)[n % 3]!, 'victim@example.com')),
    )
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3)
    expect(answers.filter((answer) => answer.status === 429 && answer.body.code === 'too_many_invitations_to_recipient')).toHaveLength(7)
    expect(await mailsTo('victim@example.com')).toHaveLength(3)
    expect(await transactions()).toBe(3)
  })

  it('honours what another server process counted in the shared table', async () => {
    const { clock, db, invite, mailsTo } = await start()
    // Another process behind the same load balancer has sent this address its ten today.
    const key = createHash('sha256').update('invitations|to:victim@example.com|day').digest('hex')
    await db
      .insertInto('rate_limits')
      .values({ key, count: 10, window_ends_at: new Date(clock.now().getTime() + 3_600_000) })
      .execute()
    expect(await invite('seller', 'victim@example.com')).toMatchObject({
      status: 429,
      body: { code: 'too_many_invitations_to_recipient' },
      headers: { 'retry-after': '3600' },
    })
    expect(await mailsTo('victim@example.com')).toHaveLength(0)
    expect(await testApp!.database.db.selectFrom('transactions').select('id').execute()).toHaveLength(0)
  })

  it('refuses a sender past their hour, creating and sending nothing, and lets them go on once the hour has passed', async () => {
    const { clock, invite, mailsTo, transactions } = await start({ INVITATIONS_PER_SENDER_PER_HOUR: '3' })
    for (const n of [1, 2, 3]) expect((await invite('seller', `guest${n}@example.com`)).status).toBe(201)
    await clock.moveBy(600)
    const refused = await invite('seller', 'guest4@example.com')
    expect(refused).toMatchObject({
      status: 429,
      body: { code: 'too_many_invitations', details: { reason: 'sender_per_hour', limit: 3, retry_after: 3000 } },
    })
    expect(refused.headers['retry-after']).toBe('3000')
    expect(await mailsTo('guest4@example.com')).toHaveLength(0)
    expect(await transactions()).toBe(3)
    // Another sender is not held back by this one.
    expect((await invite('other', 'guest4@example.com')).status).toBe(201)
    await clock.moveBy(3000)
    expect((await invite('seller', 'guest4@example.com')).status).toBe(201)
    expect(await mailsTo('guest4@example.com')).toHaveLength(2)
  })

  it('refuses a sender past their day though each hour is within its limit', async () => {
    const { clock, invite } = await start({ INVITATIONS_PER_SENDER_PER_HOUR: '2', INVITATIONS_PER_SENDER_PER_DAY: '3' })
    expect((await invite('seller', 'a@example.com')).status).toBe(201)
    expect((await invite('seller', 'b@example.com')).status).toBe(201)
    await clock.moveBy(3600)
    expect((await invite('seller', 'c@example.com')).status).toBe(201)
    expect(await invite('seller', 'd@example.com')).toMatchObject({
      status: 429,
      body: { code: 'too_many_invitations', details: { reason: 'sender_per_day', limit: 3 } },
    })
  })

  it('counts a re-sent invitation as one more e-mail to the address', async () => {
    const { clock, call, dataDir, mailsTo } = await start({ INVITATIONS_PER_RECIPIENT_PER_DAY: '2' })
    const first = await createGuestSale(call, dataDir, { email: 'guest@example.com' })
    await clock.moveBy(61)
    expect((await call('seller', 'POST', `/api/v1/transactions/${first.id}/resend_invitation`)).status).toBe(200)
    await clock.moveBy(61)
    const again = await call('seller', 'POST', `/api/v1/transactions/${first.id}/resend_invitation`)
    expect(again).toMatchObject({ status: 429, body: { code: 'too_many_invitations_to_recipient' } })
    expect(await mailsTo('guest@example.com')).toHaveLength(2)
    // The refused re-send left the link of the last one working.
    const invitation = await testApp!.database.db.selectFrom('guest_invitations').select('send_count').executeTakeFirstOrThrow()
    expect(invitation.send_count).toBe(2)
  })

  it('counts a partner client as a sender, per e-mail, and its addresses like anyone’s', async () => {
    const { db, call, mailsTo, transactions } = await start({
      INVITATIONS_PER_CLIENT_PER_HOUR: '5',
      INVITATIONS_PER_RECIPIENT_PER_DAY: '1',
    })
    const headers = await marketClientHeaders(db)
    const body = stallSale
    expect((await call(null, 'POST', '/api/v1/partner/guest_transactions', body, headers)).status).toBe(201)
    // s1 has had its one invitation today.
    expect(
      await call(null, 'POST', '/api/v1/partner/guest_transactions', { ...body, buyer_email: 'b2@example.com' }, headers),
    ).toMatchObject({
      status: 429,
      body: { code: 'too_many_invitations_to_recipient', details: { email: 's1@example.com' } },
    })
    // The refused request was not counted: two more e-mails make four this hour, two after that six.
    expect(
      (
        await call(
          null,
          'POST',
          '/api/v1/partner/guest_transactions',
          { ...body, buyer_email: 'b3@example.com', seller_email: 's3@example.com' },
          headers,
        )
      ).status,
    ).toBe(201)
    expect(
      await call(
        null,
        'POST',
        '/api/v1/partner/guest_transactions',
        { ...body, buyer_email: 'b4@example.com', seller_email: 's4@example.com' },
        headers,
      ),
    ).toMatchObject({
      status: 429,
      body: { code: 'too_many_invitations', details: { reason: 'sender_per_hour', limit: 5 } },
    })
    expect(await mailsTo('b2@example.com')).toHaveLength(0)
    expect(await mailsTo('b4@example.com')).toHaveLength(0)
    expect(await mailsTo('s1@example.com')).toHaveLength(1)
    expect(await transactions()).toBe(2)
  })
})

describe('the link that stops invitations to an address', () => {
  async function emlTo(dataDir: string, email: string): Promise<string> {
    const dir = path.join(dataDir, 'mail')
    for (const file of (await readdir(dir)).sort().reverse()) {
      const content = await readFile(path.join(dir, file), 'utf8')
      // The header block as a mail client reads it: a long header may be folded onto several lines (RFC 5322 §2.2.3).
      const headers = `\r\n${content.slice(0, content.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ')}\r\n`
      if (headers.includes(`\r\nTo: ${email}\r\n`)) return headers
    }
    throw new Error(`no mail to ${email}`)
  }

  it('is in every invitation, with one-click List-Unsubscribe headers; GET only asks, POST stops; later invitations are refused 409', async () => {
    const { app, clock, db, invite, mailsTo, call, online } = await start()
    const first = await invite('seller', 'Victim@Example.com')
    expect(first.status).toBe(201)
    const [mail] = await mailsTo('victim@example.com')
    const link = /http:\/\/localhost:3999(\/stop-invitations\/([A-Za-z0-9_-]{43})\?lang=en_gb)/.exec(mail!.text)
    expect(link, mail!.text).not.toBeNull()
    const [, pathAndQuery, token] = link!
    const eml = await emlTo(testApp!.dataDir, 'victim@example.com')
    expect(eml).toContain(`\r\nList-Unsubscribe: <http://localhost:3999${pathAndQuery}>\r\n`)
    expect(eml).toContain('\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n')
    // The token names no address and is the same for every invitation to it.
    expect(token).not.toContain('victim')
    expect((await invite('other', 'victim@example.com')).status).toBe(201)
    expect((await mailsTo('victim@example.com'))[1]!.text).toContain(pathAndQuery)

    // A mail scanner opening the link stops nothing.
    const page = await app.inject({ method: 'GET', url: `/stop-invitations/${token}?lang=fi_fi` })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toContain('text/html')
    expect(page.body).toContain('<html lang="fi-FI">')
    expect(page.body).toContain('Lopeta kutsut')
    expect(page.body).toContain(`<form method="post" action="/stop-invitations/${token}?lang=fi_fi">`)
    expect((await invite('seller', 'victim@example.com')).status).toBe(201)

    // The mail client's one click (RFC 8058).
    const stopped = await app.inject({
      method: 'POST',
      url: pathAndQuery!,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    })
    expect(stopped.statusCode).toBe(200)
    expect(stopped.body).toContain('Invitations stopped')
    expect(JSON.stringify(await db.selectFrom('stopped_invitation_addresses').selectAll().execute())).not.toContain(token)

    const before = (await mailsTo('victim@example.com')).length
    for (const email of ['victim@example.com', 'VICTIM@example.com']) {
      expect(await invite('seller', email)).toMatchObject({
        status: 409,
        body: { code: 'invitations_stopped_by_recipient', details: { field: 'counterparty_email' } },
      })
    }
    // Nor is an invitation sent before the stop sent again.
    await clock.moveBy(61)
    expect(await call('seller', 'POST', `/api/v1/transactions/${first.body.id}/resend_invitation`)).toMatchObject({
      status: 409,
      body: { code: 'invitations_stopped_by_recipient' },
    })
    expect(await mailsTo('victim@example.com')).toHaveLength(before)
    // Others are still invited, and the owner of the address uses Pactum as anyone does.
    expect((await invite('seller', 'someone@example.com')).status).toBe(201)
    expect((await call('victim', 'POST', '/api/v1/me/transactions', online)).status).toBe(201)
    expect((await call('victim', 'POST', '/api/v1/me/transactions', { ...online, counterparty_email: 'seller@example.com' })).status).toBe(
      201,
    )
  })

  it('stops a partner’s invitations too, naming the field, and takes a multipart one-click POST', async () => {
    const { app, db, call, invite, mailsTo } = await start()
    expect((await invite('seller', 'victim@example.com')).status).toBe(201)
    const token = /\/stop-invitations\/([A-Za-z0-9_-]{43})/.exec((await mailsTo('victim@example.com'))[0]!.text)![1]
    const boundary = 'xyz'
    const stopped = await app.inject({
      method: 'POST',
      url: `/stop-invitations/${token}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    })
    expect(stopped.statusCode).toBe(200)
    const headers = await marketClientHeaders(db)
    const body = { ...stallSale, buyer_email: 'victim@example.com', seller_email: 'seller2@example.com' }
    expect(await call(null, 'POST', '/api/v1/partner/guest_transactions', body, headers)).toMatchObject({
      status: 409,
      body: { code: 'invitations_stopped_by_recipient', details: { field: 'buyer_email' } },
    })
    expect(await mailsTo('seller2@example.com')).toHaveLength(0)
  })

  it('answers a malformed token with a page saying so, and records nothing', async () => {
    const { app, db } = await start()
    for (const method of ['GET', 'POST'] as const) {
      const answer = await app.inject({ method, url: '/stop-invitations/not-a-token' })
      expect(answer.statusCode).toBe(404)
      expect(answer.body).toContain('This link is not valid')
    }
    expect(await db.selectFrom('stopped_invitation_addresses').selectAll().execute()).toHaveLength(0)
  })
})

describe('each user’s pace on creates and list reads', () => {
  it('refuses creates past the hour’s limit 429 rate_limited naming the reason, online and face-to-face together', async () => {
    const { clock, call, online } = await start({ TRANSACTION_CREATES_PER_HOUR: '2' })
    expect((await call('seller', 'POST', '/api/v1/me/transactions', online)).status).toBe(201)
    const f2f = {
      role: 'seller',
      currency: 'eur',
      description: 'A desk',
      deposit_price: 10_000,
      deposit_charge: online.charge,
      charge_calculator_version: online.charge_calculator_version,
    }
    expect((await call('seller', 'POST', '/api/v1/p2p/me/transactions', f2f)).status).toBe(201)
    const refused = await call('seller', 'POST', '/api/v1/me/transactions', online)
    expect(refused).toMatchObject({
      status: 429,
      body: { code: 'rate_limited', details: { reason: 'transaction_creates', limit: 2, window_seconds: 3600, retry_after: 3600 } },
    })
    expect(refused.headers['retry-after']).toBe('3600')
    expect(await call('seller', 'POST', '/api/v1/p2p/me/transactions', f2f)).toMatchObject({
      status: 429,
      body: { details: { reason: 'transaction_creates' } },
    })
    expect((await call('other', 'POST', '/api/v1/me/transactions', online)).status).toBe(201)
    await clock.moveBy(3600)
    expect((await call('seller', 'POST', '/api/v1/me/transactions', online)).status).toBe(201)
  })

  it('writes nothing past the limit, whichever way the create is written, and lets a refused Idempotency-Key go', async () => {
    const { db, clock, call, online, invite, transactions } = await start({ TRANSACTION_CREATES_PER_HOUR: '1' })
    expect((await call('seller', 'POST', '/api/v1/me/transactions', online)).status).toBe(201)
    const events = async () => (await db.selectFrom('transaction_events').select('id').execute()).length
    const [transactionsBefore, eventsBefore] = [await transactions(), await events()]
    // The single statement (no invitation, no key), a guest invitation's database transaction, and a keyed create's.
    const refusals = [
      await call('seller', 'POST', '/api/v1/me/transactions', online),
      await invite('seller', 'guest@example.com'),
      await call('seller', 'POST', '/api/v1/me/transactions', online, { 'idempotency-key': 'create-1' }),
    ]
    for (const refused of refusals) expect(refused).toMatchObject({ status: 429, body: { details: { reason: 'transaction_creates' } } })
    expect([await transactions(), await events()]).toEqual([transactionsBefore, eventsBefore])
    expect(await db.selectFrom('guest_invitations').select('id').execute()).toHaveLength(0)
    // A 429 is no answer to keep: the same key is welcome once the hour has passed, and creates once.
    await clock.moveBy(3600)
    const retried = await call('seller', 'POST', '/api/v1/me/transactions', online, { 'idempotency-key': 'create-1' })
    expect(retried.status).toBe(201)
    expect(retried.headers['idempotent-replayed']).toBeUndefined()
    const replayed = await call('seller', 'POST', '/api/v1/me/transactions', online, { 'idempotency-key': 'create-1' })
    expect(replayed).toMatchObject({ status: 201, body: { id: retried.body.id }, headers: { 'idempotent-replayed': 'true' } })
    expect(await transactions()).toBe(transactionsBefore + 1)
  })

  it('refuses listing creates and list reads past their limits', async () => {
    const { call } = await start({ LISTING_CREATES_PER_HOUR: '1', LIST_READS_PER_MINUTE: '2' })
    const listing = { type: 'online', listing_type: 'single_use', price: 1000, currency: 'eur', description: 'A lamp' }
    expect((await call('seller', 'POST', '/api/v1/me/listings', listing)).status).toBe(201)
    expect(await call('seller', 'POST', '/api/v1/me/listings', listing)).toMatchObject({
      status: 429,
      body: { code: 'rate_limited', details: { reason: 'listing_creates' } },
    })
    expect((await call('seller', 'GET', '/api/v1/me/transactions')).status).toBe(200)
    expect((await call('seller', 'GET', '/api/v1/p2p/me/transactions')).status).toBe(200)
    const reads = [await call('seller', 'GET', '/api/v1/me/transactions'), await call('seller', 'GET', '/api/v1/me/listings')]
    for (const read of reads)
      expect(read).toMatchObject({ status: 429, body: { code: 'rate_limited', details: { reason: 'list_reads', window_seconds: 60 } } })
    expect(Number(reads[0]!.headers['retry-after'])).toBeGreaterThan(0)
    expect((await call('other', 'GET', '/api/v1/me/listings')).status).toBe(200)
  })

  it('counts a partner client’s calls per client, whatever address they come from', async () => {
    const { db, call } = await start({ PARTNER_REQUESTS_PER_MINUTE: '1' })
    const headers = await marketClientHeaders(db)
    const body = stallSale
    expect((await call(null, 'POST', '/api/v1/partner/guest_transactions', body, headers)).status).toBe(201)
    const refused = await testApp!.app.inject({
      method: 'POST',
      url: '/api/v1/partner/guest_transactions',
      headers,
      payload: body,
      remoteAddress: '10.0.0.9',
    })
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toMatchObject({ code: 'rate_limited', details: { reason: 'partner_requests' } })
    expect(refused.headers['retry-after']).toBeDefined()
  })
})

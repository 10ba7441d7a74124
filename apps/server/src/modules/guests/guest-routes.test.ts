import { afterEach, describe, expect, it } from 'vitest'
import { issueApiKey } from '../partner-clients/partner-api-key.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { createGuestSale, invitationLink } from '../../testing/guest-sale-steps.ts'
import { payByCard } from '../../testing/sale-steps.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { writtenMails } from '../../testing/written-mails.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

/** The seller invites `buyer@example.com`, who signs in as `buyer` only to claim. */
async function start() {
  testApp = await createTestApp()
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' }, stranger: {} })
  return { app: testApp.app, dataDir: testApp.dataDir, db: testApp.database.db, call: apiCaller(testApp.app, tokens) }
}

const claimPath = (secret: string, role: 'buyer' | 'seller', type: 'online' | 'f2f' = 'online') =>
  `/api/v1${type === 'f2f' ? '/p2p' : ''}/transactions_by_claim_secret/${secret}/claim_as_${role}`

describe('a guest transaction created by a signed-in user', () => {
  it('has no join code, e-mails a single-use claim link, and once claimed is an ordinary sale that can be paid', async () => {
    const { app, dataDir, call } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'Buyer@Example.com' })
    expect(sale.created).toMatchObject({ status: 'created', role: 'seller', join_code: null, buyer_id: null })
    expect(sale).toMatchObject({ role: 'buyer', type: 'online' })
    // 256 bits in base64url: far beyond guessing, and only its hash is kept.
    expect(sale.secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const stored = await testApp!.database.db.selectFrom('guest_invitations').selectAll().execute()
    expect(stored).toHaveLength(1)
    expect(JSON.stringify(stored)).not.toContain(sale.secret)
    expect(sale.mail.text).toContain(`http://localhost:3999/join-guest-transaction/${sale.secret}/online`)
    expect(sale.mail.text).toContain('Seller: Sam')

    const preview = await call('buyer', 'GET', `/api/v1/transactions_by_claim_secret/${sale.secret}`)
    expect(preview).toMatchObject({
      status: 200,
      body: {
        id: sale.id,
        type: 'online',
        role: 'buyer',
        claimed: false,
        price: 10_000,
        charge: 340,
        inviter_first_name: 'Sam',
        invited_email: 'buyer@example.com',
      },
    })

    const claimed = await call('buyer', 'POST', claimPath(sale.secret, 'buyer'))
    expect(claimed).toMatchObject({ status: 200, body: { id: sale.id, status: 'joined', role: 'buyer' } })
    await app.services.jobs.runDue()
    expect(
      (await writtenMails(dataDir)).some((mail) => mail.to === 'seller@example.com' && mail.subject.includes('A buyer has joined')),
    ).toBe(true)

    const again = await call('stranger', 'POST', claimPath(sale.secret, 'buyer'))
    expect(again).toMatchObject({ status: 409, body: { code: 'already_claimed' } })
    expect((await call('stranger', 'GET', `/api/v1/transactions_by_claim_secret/${sale.secret}`)).body).toMatchObject({ claimed: true })
    expect((await call('stranger', 'GET', `/api/v1/transactions/${sale.id}`)).status).toBe(404)

    const { transaction } = await payByCard(call, sale.id)
    expect(transaction).toMatchObject({ status: 'paid' })
  })

  it('answers an unknown or malformed secret 404 and a wrong role or kind 409 claim_link_mismatch', async () => {
    const { dataDir, call } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'buyer@example.com' })
    for (const secret of ['A'.repeat(43), 'not-a-secret']) {
      expect(await call('buyer', 'POST', claimPath(secret, 'buyer'))).toMatchObject({
        status: 404,
        body: { code: 'claim_secret_not_found' },
      })
      expect(await call('buyer', 'GET', `/api/v1/transactions_by_claim_secret/${secret}`)).toMatchObject({
        status: 404,
        body: { code: 'claim_secret_not_found' },
      })
    }
    expect(await call('buyer', 'POST', claimPath(sale.secret, 'seller'))).toMatchObject({
      status: 409,
      body: { code: 'claim_link_mismatch', details: { role: 'buyer', type: 'online' } },
    })
    expect(await call('buyer', 'POST', claimPath(sale.secret, 'buyer', 'f2f'))).toMatchObject({
      status: 409,
      body: { code: 'claim_link_mismatch' },
    })
    // None of these used the link up.
    expect(await call('buyer', 'POST', claimPath(sale.secret, 'buyer'))).toMatchObject({ status: 200, body: { status: 'joined' } })
  })

  it('refuses the creator their own invitation, and inviting themselves', async () => {
    const { dataDir, call } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'buyer@example.com' })
    expect(await call('seller', 'GET', `/api/v1/transactions_by_claim_secret/${sale.secret}`)).toMatchObject({
      status: 403,
      body: { code: 'cannot_join_own_transaction' },
    })
    expect(await call('seller', 'POST', claimPath(sale.secret, 'buyer'))).toMatchObject({
      status: 403,
      body: { code: 'cannot_join_own_transaction' },
    })
    const quote = await call('seller', 'GET', '/api/v1/charge?price=10000&currency=eur&payment_method=card')
    const self = await call('seller', 'POST', '/api/v1/me/transactions', {
      role: 'seller',
      price: 10_000,
      currency: 'eur',
      description: 'A lamp',
      payment_method: 'card',
      charge: quote.body.charge,
      charge_calculator_version: 1,
      counterparty_email: 'seller@example.com',
    })
    expect(self).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
  })

  it('lets a face-to-face buyer invite the seller, who claims through /p2p', async () => {
    const { dataDir, call } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'seller@example.com', kind: 'f2f', creator: 'buyer' })
    expect(sale).toMatchObject({ role: 'seller', type: 'f2f' })
    expect(sale.mail.text).toContain(`/join-guest-transaction-as-seller/${sale.secret}/f2f`)
    expect(sale.mail.text).toContain('Deposit: €100.00')
    expect(await call('seller', 'POST', claimPath(sale.secret, 'seller'))).toMatchObject({
      status: 409,
      body: { code: 'claim_link_mismatch', details: { type: 'f2f' } },
    })
    const claimed = await call('seller', 'POST', claimPath(sale.secret, 'seller', 'f2f'))
    expect(claimed).toMatchObject({ status: 200, body: { type: 'f2f', status: 'joined', role: 'seller' } })
  })

  it('gives one success and one already_claimed to two claims racing', async () => {
    const { dataDir, call } = await start()
    const sale = await createGuestSale(call, dataDir, { email: 'buyer@example.com' })
    const answers = await Promise.all([
      call('buyer', 'POST', claimPath(sale.secret, 'buyer')),
      call('stranger', 'POST', claimPath(sale.secret, 'buyer')),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
    expect(answers.find((answer) => answer.status === 409)?.body.code).toBe('already_claimed')
  })

  it('counts claim attempts per user like join codes', async () => {
    const { call } = await start()
    const statuses: number[] = []
    for (let attempt = 0; attempt < 21; attempt++)
      statuses.push((await call('stranger', 'POST', claimPath('B'.repeat(43), 'buyer'))).status)
    expect(statuses.slice(0, 20).every((status) => status === 404)).toBe(true)
    expect(statuses[20]).toBe(429)
  })
})

describe('the invitation e-mail', () => {
  it("is written in the sender's chosen language, else the invitee's own, else the sender's", async () => {
    const { dataDir, db, call } = await start()
    const chosen = await createGuestSale(call, dataDir, { email: 'someone@example.com', language: 'fi_fi' })
    expect(chosen.mail.subject).toBe('Sinut on kutsuttu ostamaan “A green lamp” turvallisesti Pactumilla')
    expect(chosen.mail.text).toContain('Hyväksy kutsu: http://localhost:3999/join-guest-transaction/')

    await call('stranger', 'GET', '/api/v1/me')
    await db.updateTable('users').set({ notification_language: 'pl_pl' }).where('email', '=', 'stranger@example.com').execute()
    const known = await createGuestSale(call, dataDir, { email: 'stranger@example.com' })
    expect(known.mail.subject).toBe('Zaproszenie do bezpiecznego zakupu „A green lamp” z Pactum')

    await db.updateTable('users').set({ notification_language: 'sv_se' }).where('email', '=', 'seller@example.com').execute()
    const unknown = await createGuestSale(call, dataDir, { email: 'nobody-yet@example.com' })
    expect(unknown.mail.subject).toBe('Du är inbjuden att köpa ”A green lamp” tryggt med Pactum')
    expect(unknown.mail.text).toContain('Säljare: Sam')
  })
})

describe('a partner client inviting both parties', () => {
  const body = {
    type: 'online',
    buyer_email: 'buyer@example.com',
    seller_email: 'seller@example.com',
    price: 10_000,
    currency: 'eur',
    description: 'A market stall sale',
  }

  async function partner() {
    const context = await start()
    await context.db.insertInto('clients').values({ id: 'market', name: 'The Market' }).execute()
    const key = await issueApiKey(context.db, 'market', { kind: 'operator' }, new Date())
    return { ...context, key }
  }

  it('refuses a missing, malformed, wrong or other client’s key with 401 invalid_api_key before reading the body', async () => {
    const { db, call, key } = await partner()
    await db.insertInto('clients').values({ id: 'other', name: 'Other' }).execute()
    const otherKey = await issueApiKey(db, 'other', { kind: 'operator' }, new Date())
    const wrongKeys = [undefined, 'nonsense', `market.${'x'.repeat(43)}`, `nobody.${key.split('.')[1]}`, `market.${otherKey.split('.')[1]}`]
    for (const wrong of wrongKeys) {
      const answer = await call(
        null,
        'POST',
        '/api/v1/partner/guest_transactions',
        { broken: true },
        wrong ? { 'x-pactum-api-key': wrong } : {},
      )
      expect(answer, String(wrong)).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } })
    }
    const stored = await db.selectFrom('clients').select('api_key_hash').where('id', '=', 'market').executeTakeFirstOrThrow()
    expect(stored.api_key_hash).not.toContain(key.split('.')[1])
  })

  it('counts key attempts per address, so a key cannot be guessed at speed', async () => {
    const { call } = await partner()
    const statuses: number[] = []
    for (let attempt = 0; attempt < 31; attempt++) {
      statuses.push(
        (await call(null, 'POST', '/api/v1/partner/guest_transactions', body, { 'x-pactum-api-key': `market.guess${attempt}` })).status,
      )
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true)
    expect(statuses[30]).toBe(429)
  })

  it('reads the specification’s type `f` as face to face, and answers `f2f`', async () => {
    const { call, key } = await partner()
    const created = await call(null, 'POST', '/api/v1/partner/guest_transactions', { ...body, type: 'f' }, { 'x-pactum-api-key': key })
    expect(created).toMatchObject({ status: 201, body: { type: 'f2f', client_id: 'market' } })
    const wrong = await call(null, 'POST', '/api/v1/partner/guest_transactions', { ...body, type: 'face' }, { 'x-pactum-api-key': key })
    expect(wrong).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { fields: [{ field: 'body.type' }] } } })
  })

  it('creates the transaction for the client, e-mails both, and joins it once both have claimed', async () => {
    const { dataDir, call, key } = await partner()
    const headers = { 'x-pactum-api-key': key }
    expect(
      await call(null, 'POST', '/api/v1/partner/guest_transactions', { ...body, seller_email: 'buyer@example.com' }, headers),
    ).toMatchObject({ status: 400 })
    const created = await call(null, 'POST', '/api/v1/partner/guest_transactions', body, headers)
    expect(created).toMatchObject({ status: 201, body: { type: 'online', status: 'created', client_id: 'market', charge: 340 } })
    const toSeller = await invitationLink(dataDir, 'seller@example.com')
    const toBuyer = await invitationLink(dataDir, 'buyer@example.com')
    expect(toSeller).toMatchObject({ role: 'seller', type: 'online' })
    expect(toBuyer.mail.text).toContain('Sent through: The Market')
    expect(toBuyer.secret).not.toBe(toSeller.secret)

    const first = await call('buyer', 'POST', claimPath(toBuyer.secret, 'buyer'))
    expect(first).toMatchObject({ status: 200, body: { status: 'created', role: 'buyer', client_id: 'market' } })
    // The buyer cannot take the seller's place too.
    expect(await call('buyer', 'POST', claimPath(toSeller.secret, 'seller'))).toMatchObject({
      status: 403,
      body: { code: 'cannot_join_own_transaction' },
    })
    const second = await call('seller', 'POST', claimPath(toSeller.secret, 'seller'))
    expect(second).toMatchObject({ status: 200, body: { status: 'joined', role: 'seller' } })
    const { transaction } = await payByCard(call, created.body.id)
    expect(transaction).toMatchObject({ status: 'paid' })
  })
})

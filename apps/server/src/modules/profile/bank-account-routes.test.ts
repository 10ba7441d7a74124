import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { PaymentProviderError } from '../../adapters/payment-provider/provider-error.ts'
import { type PlaidFake, startPlaidFake } from '../../testing/plaid-fake.ts'
import { appPerFile } from '../../testing/app-per-test.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'

const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
const testApp = appPerFile({ clock })
let counter = 0

type Method = 'GET' | 'POST'

function caller(app: () => TestApp, token: string | null) {
  return async (method: Method, url: string, payload?: unknown) => {
    const response = await app().app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: response.statusCode, body: response.body ? response.json() : null, raw: response.body }
  }
}

async function newUser(app: () => TestApp = testApp) {
  counter += 1
  const token = await app().tokenFor(`bank-${counter}@example.com`, { firstName: 'Ada', lastName: 'Lovelace' })
  const raw = caller(app, token)
  const call = (method: Method, url: string, payload?: unknown) => raw(method, `/api/v1${url}`, payload)
  return { call, raw }
}

async function onboarded(countryCode: string, app: () => TestApp = testApp) {
  const user = await newUser(app)
  expect((await user.call('POST', '/me/personal/set_active_country', { country_code: countryCode })).status).toBe(204)
  expect((await user.call('POST', '/me/accept_tos_direct')).status).toBe(200)
  return user
}

const germanIban = 'DE89370400440532013000'

describe('authentication', () => {
  it.each([
    ['GET', '/me/debit_account'],
    ['POST', '/me/debit_account'],
    ['GET', '/me/plaid/link_token'],
    ['POST', '/me/plaid/link_bank_details'],
  ] as const)('%s %s answers 401 without a token', async (method, url) => {
    const response = await caller(testApp, null)(method, `/api/v1${url}`, method === 'POST' ? {} : undefined)
    expect(response.status).toBe(401)
    expect(response.body.code).toBe('unauthenticated')
  })
})

describe('country gate', () => {
  it.each([
    ['GET', '/me/debit_account', undefined],
    ['POST', '/me/debit_account', { account_holder_name: 'Ada Lovelace', iban: germanIban }],
    ['GET', '/me/plaid/link_token', undefined],
    ['POST', '/me/plaid/link_bank_details', { public_token: 'public-sandbox-x', account_id: 'a' }],
  ] as const)('%s %s answers 409 active_country_not_set before a country is set', async (method, url, payload) => {
    const user = await newUser()
    const response = await user.call(method, url, payload)
    expect(response.status).toBe(409)
    expect(response.body.code).toBe('active_country_not_set')
  })
})

describe('POST and GET /me/debit_account', () => {
  it('starts empty, stores a German IBAN and shows only last4', async () => {
    const user = await onboarded('de')
    expect(await user.call('GET', '/me/debit_account')).toMatchObject({ status: 200, body: { bank_account: null, card: null } })

    const saved = await user.call('POST', '/me/debit_account', {
      account_holder_name: ' Ada  Lovelace ',
      iban: 'DE89 3704 0044 0532 0130 00',
    })
    expect(saved.status).toBe(200)
    expect(saved.body).toEqual({
      bank_account: { id: expect.any(String), account_holder_name: 'Ada Lovelace', country: 'de', currency: 'eur', last4: '3000' },
      card: null,
    })
    expect(saved.raw).not.toContain('370400440532013000')

    const read = await user.call('GET', '/me/debit_account')
    expect(read.body).toEqual(saved.body)
    expect(read.raw).not.toContain('370400440532013000')
  })

  it('replaces the account on update (one per user)', async () => {
    const user = await onboarded('gb')
    const first = await user.call('POST', '/me/debit_account', {
      account_holder_name: 'Ada Lovelace',
      sort_code: '12-34-56',
      account_number: '12345678',
    })
    expect(first.body.bank_account).toMatchObject({ country: 'gb', currency: 'gbp', last4: '5678', routing_number: '123456' })
    const second = await user.call('POST', '/me/debit_account', {
      account_holder_name: 'Ada Lovelace',
      sort_code: '654321',
      account_number: '87654321',
    })
    expect(second.body.bank_account).toMatchObject({ last4: '4321', routing_number: '654321' })
    expect(second.body.bank_account.id).not.toBe(first.body.bank_account.id)
    expect((await user.call('GET', '/me/debit_account')).body).toEqual(second.body)
    const rows = await testApp()
      .database.db.selectFrom('bank_accounts')
      .select('id')
      .where('id', 'in', [first.body.bank_account.id, second.body.bank_account.id])
      .execute()
    expect(rows).toHaveLength(1)
  })

  it('takes US, Australian and Malaysian details', async () => {
    const us = await onboarded('us')
    expect(
      (
        await us.call('POST', '/me/debit_account', {
          account_holder_name: 'Ada',
          routing_number: '021000021',
          account_number: '000123456789',
          account_type: 'savings',
        })
      ).body.bank_account,
    ).toMatchObject({ country: 'us', currency: 'usd', last4: '6789', routing_number: '021000021', account_type: 'savings' })
    const au = await onboarded('au')
    expect(
      (await au.call('POST', '/me/debit_account', { account_holder_name: 'Ada', bsb: '062-000', account_number: '12345678' })).body
        .bank_account,
    ).toMatchObject({
      country: 'au',
      currency: 'aud',
      routing_number: '062000',
    })
    const my = await onboarded('my')
    expect(
      (await my.call('POST', '/me/debit_account', { account_holder_name: 'Ada', bank_code: 'MBBEMYKL', account_number: '1234567890' })).body
        .bank_account,
    ).toMatchObject({
      country: 'my',
      currency: 'myr',
      bank_name: 'Maybank (Malayan Banking)',
    })
  })

  it('answers 400 validation_failed naming each wrong field', async () => {
    const user = await onboarded('us')
    const response = await user.call('POST', '/me/debit_account', {
      account_holder_name: '',
      routing_number: '110000001',
      account_number: '12',
      account_type: 'business',
    })
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('validation_failed')
    expect(response.body.details.fields.map((entry: { field: string }) => entry.field)).toEqual([
      'body.account_holder_name',
      'body.routing_number',
      'body.account_number',
      'body.account_type',
    ])
    expect(response.body.details.fields[1]).toMatchObject({ problem: 'invalid_checksum' })
    expect((await user.call('GET', '/me/debit_account')).body.bank_account).toBeNull()
  })

  it('refuses a bad IBAN checksum and length without echoing the number', async () => {
    const user = await onboarded('de')
    const badChecksum = await user.call('POST', '/me/debit_account', { account_holder_name: 'Ada', iban: 'DE89370400440532013001' })
    expect(badChecksum.status).toBe(400)
    expect(badChecksum.body.details.fields).toEqual([{ field: 'body.iban', problem: 'invalid_checksum', message: expect.any(String) }])
    expect(badChecksum.raw).not.toContain('370400440532013001')
    const badLength = await user.call('POST', '/me/debit_account', { account_holder_name: 'Ada', iban: 'DE8937040044053201300' })
    expect(badLength.body.details.fields).toEqual([{ field: 'body.iban', problem: 'invalid_length', message: expect.any(String) }])
  })

  it('accepts another SEPA country for a SEPA user, and nothing else', async () => {
    const user = await onboarded('de')
    expect(
      (await user.call('POST', '/me/debit_account', { account_holder_name: 'Ada', country: 'fr', iban: 'FR1420041010050500013M02606' }))
        .body.bank_account,
    ).toMatchObject({
      country: 'fr',
      currency: 'eur',
      last4: '2606',
    })
    const other = await user.call('POST', '/me/debit_account', {
      account_holder_name: 'Ada',
      country: 'gb',
      sort_code: '123456',
      account_number: '12345678',
    })
    expect(other.status).toBe(400)
    expect(other.body.details.fields[0].field).toBe('body.country')
  })

  it('refuses a body of the wrong shape with 400', async () => {
    const user = await onboarded('de')
    const response = await user.call('POST', '/me/debit_account', { iban: germanIban })
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('validation_failed')
    expect(response.body.details.fields[0].field).toBe('body.account_holder_name')
  })
})

describe('payout requirements', () => {
  it('lists credit_account only until a bank account is stored', async () => {
    const user = await onboarded('de')
    expect((await user.call('GET', '/me/personal/payout_requirements')).body.requirements.other).toEqual([
      'credit_account',
      'identity_document',
    ])
    expect((await user.call('POST', '/me/debit_account', { account_holder_name: 'Ada', iban: germanIban })).status).toBe(200)
    const after = await user.call('GET', '/me/personal/payout_requirements')
    expect(after.body.requirements.other).toEqual(['identity_document'])
    expect(after.body.status).toBe('due')
  })
})

describe('sandbox bank link (country us)', () => {
  async function link(user: Awaited<ReturnType<typeof onboarded>>, institution: 'success' | 'failure') {
    const tokenResponse = await user.call('GET', '/me/plaid/link_token')
    expect(tokenResponse.status).toBe(200)
    const linkToken: string = tokenResponse.body.link_token
    expect(linkToken).toMatch(/^link-sandbox-/)
    expect(tokenResponse.body.provider).toBe('sandbox')
    const completed = await user.raw('POST', `/sandbox/plaid/link/${encodeURIComponent(linkToken)}/complete`, { institution })
    expect(completed.status).toBe(200)
    expect(completed.body.public_token).toMatch(/^public-sandbox-/)
    return { linkToken, publicToken: completed.body.public_token as string, accountId: completed.body.accounts[0].id as string }
  }

  it('links the test account and satisfies credit_account', async () => {
    const user = await onboarded('us')
    const { publicToken, accountId } = await link(user, 'success')
    const linked = await user.call('POST', '/me/plaid/link_bank_details', { public_token: publicToken, account_id: accountId })
    expect(linked.status).toBe(200)
    expect(linked.body).toEqual({
      bank_account: {
        id: expect.any(String),
        account_holder_name: 'Ada Lovelace',
        country: 'us',
        currency: 'usd',
        last4: '6789',
        routing_number: '110000000',
        account_type: 'checking',
        bank_name: 'Sandbox Bank',
      },
    })
    expect(linked.raw).not.toContain('1111222233336789')
    expect((await user.call('GET', '/me/debit_account')).body.bank_account).toEqual(linked.body.bank_account)
    expect((await user.call('GET', '/me/personal/payout_requirements')).body.requirements.other).not.toContain('credit_account')
    // A retry after a lost answer gets the same account; the token itself is single use.
    const again = await user.call('POST', '/me/plaid/link_bank_details', { public_token: publicToken, account_id: accountId })
    expect(again).toMatchObject({ status: 200, body: linked.body })
    const otherAccount = await user.call('POST', '/me/plaid/link_bank_details', {
      public_token: publicToken,
      account_id: `${accountId}-other`,
    })
    expect(otherAccount.status).toBe(400)
  })

  it('answers 400 validation_failed with a clear message when the institution fails', async () => {
    const user = await onboarded('us')
    const { publicToken, accountId } = await link(user, 'failure')
    const response = await user.call('POST', '/me/plaid/link_bank_details', { public_token: publicToken, account_id: accountId })
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('validation_failed')
    expect(response.body.error).toMatch(/could not be linked/)
    expect(response.body.details.fields[0]).toMatchObject({ field: 'body.public_token', problem: 'institution_error' })
    expect((await user.call('GET', '/me/debit_account')).body.bank_account).toBeNull()
  })

  it('refuses tokens it did not issue, another user’s token, and a used link token', async () => {
    const user = await onboarded('us')
    const forged = await user.call('POST', '/me/plaid/link_bank_details', { public_token: 'public-sandbox-forged', account_id: 'x' })
    expect(forged.status).toBe(400)
    const foreign = await user.call('POST', '/me/plaid/link_bank_details', { public_token: 'public-production-abc', account_id: 'x' })
    expect(foreign.status).toBe(400)

    const { linkToken, publicToken, accountId } = await link(user, 'success')
    const reused = await user.raw('POST', `/sandbox/plaid/link/${encodeURIComponent(linkToken)}/complete`, { institution: 'success' })
    expect(reused.status).toBe(404)
    const other = await onboarded('us')
    expect((await other.call('POST', '/me/plaid/link_bank_details', { public_token: publicToken, account_id: accountId })).status).toBe(400)
  })

  it('offers bank linking only in the United States', async () => {
    const user = await onboarded('de')
    const response = await user.call('GET', '/me/plaid/link_token')
    expect(response.body.code).toBe('unsupported_combination')
    expect(response.status).toBe(400)
  })
})

describe('Plaid bank link (country us, PLAID_CLIENT_ID and PLAID_SECRET set)', () => {
  let fake: PlaidFake
  let plaidApp: TestApp
  beforeAll(async () => {
    fake = await startPlaidFake()
    plaidApp = await createTestApp({ clock, env: { PLAID_CLIENT_ID: fake.clientId, PLAID_SECRET: fake.secret, PLAID_API_URL: fake.url } })
  })
  afterAll(async () => {
    await plaidApp.close()
    await fake.close()
  })

  async function linkThroughPlaid(user: Awaited<ReturnType<typeof onboarded>>) {
    const tokenResponse = await user.call('GET', '/me/plaid/link_token')
    expect(tokenResponse).toMatchObject({ status: 200, body: { provider: 'plaid' } })
    // What Plaid Link does in the browser with the token.
    const { publicToken, accounts } = fake.completeLink(tokenResponse.body.link_token as string)
    const checking = accounts.find((account) => account.subtype === 'checking')
    return { publicToken, accountId: checking?.account_id ?? '' }
  }

  it('attaches the account to the seller’s connected account through the payment provider, never seeing its number', async () => {
    const user = await onboarded('us', () => plaidApp)
    const { publicToken, accountId } = await linkThroughPlaid(user)
    const linked = await user.call('POST', '/me/plaid/link_bank_details', { public_token: publicToken, account_id: accountId })
    expect(linked).toMatchObject({
      status: 200,
      body: {
        bank_account: {
          account_holder_name: 'Ada Lovelace',
          country: 'us',
          currency: 'usd',
          last4: '0000',
          account_type: 'checking',
          bank_name: 'First Platypus Bank',
        },
      },
    })
    expect(linked.body.bank_account.routing_number).toBeUndefined()

    const { db, connectedAccounts } = plaidApp.app.services
    const stored = await db.selectFrom('bank_accounts').selectAll().where('id', '=', linked.body.bank_account.id).executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ source: 'bank_link', account_number: null, last4: '0000' })
    // The Stripe token Plaid made is the one the payment provider got: its account now has the bank account.
    const connected = await connectedAccounts.findConnectedAccount(stored.user_id)
    expect(connected).not.toBeNull()
    const external = await db
      .selectFrom('sandbox_external_accounts')
      .selectAll()
      .where('account_id', '=', connected?.id ?? '')
      .executeTakeFirstOrThrow()
    expect(external).toMatchObject({ country: 'us', currency: 'usd', last4: '0000' })
    expect(
      await db
        .selectFrom('sandbox_spent_bank_tokens')
        .select('account_id')
        .where('account_id', '=', connected?.id ?? '')
        .execute(),
    ).toHaveLength(1)
    expect((await connectedAccounts.getAccountVerification(connected?.id ?? '')).currentlyDue).not.toContain('external_account')
    expect((await user.call('GET', '/me/personal/payout_requirements')).body.requirements.other).not.toContain('credit_account')
  })

  it('answers a retried link with the account it stored, replaces it with a new link, and then refuses the spent public token', async () => {
    const user = await onboarded('us', () => plaidApp)
    const first = await linkThroughPlaid(user)
    const firstLinked = await user.call('POST', '/me/plaid/link_bank_details', {
      public_token: first.publicToken,
      account_id: first.accountId,
    })
    expect(firstLinked.status).toBe(200)
    // The browser never got the answer and sends the same link again: Plaid is not asked twice.
    const exchanges = () => fake.requests.filter((request) => request.path === '/item/public_token/exchange').length
    const exchangesBefore = exchanges()
    const retried = await user.call('POST', '/me/plaid/link_bank_details', { public_token: first.publicToken, account_id: first.accountId })
    expect(retried).toMatchObject({ status: 200, body: { bank_account: firstLinked.body.bank_account } })
    expect(exchanges()).toBe(exchangesBefore)

    const second = await linkThroughPlaid(user)
    const secondLinked = await user.call('POST', '/me/plaid/link_bank_details', {
      public_token: second.publicToken,
      account_id: second.accountId,
    })
    expect(secondLinked.status).toBe(200)
    expect(secondLinked.body.bank_account.id).not.toBe(firstLinked.body.bank_account.id)
    expect((await user.call('GET', '/me/debit_account')).body.bank_account.id).toBe(secondLinked.body.bank_account.id)

    const stale = await user.call('POST', '/me/plaid/link_bank_details', { public_token: first.publicToken, account_id: first.accountId })
    expect(stale.status).toBe(400)
    expect(stale.body.details.fields[0]).toMatchObject({ field: 'body.public_token', problem: 'invalid_public_token' })
  })

  it('answers 400 institution_error when the bank wants the seller to log in again', async () => {
    const user = await onboarded('us', () => plaidApp)
    const { publicToken, accountId } = await linkThroughPlaid(user)
    fake.requireLogin(publicToken)
    const response = await user.call('POST', '/me/plaid/link_bank_details', { public_token: publicToken, account_id: accountId })
    expect(response.status).toBe(400)
    expect(response.body.details.fields[0]).toMatchObject({ field: 'body.public_token', problem: 'institution_error' })
    expect((await user.call('GET', '/me/debit_account')).body.bank_account).toBeNull()
  })

  it('answers 400 naming the public token when the payment provider refuses the bank’s token, and stores nothing', async () => {
    const user = await onboarded('us', () => plaidApp)
    const { publicToken, accountId } = await linkThroughPlaid(user)
    const refusal = new PaymentProviderError('invalid_request', 'This bank account cannot receive payouts', { param: 'external_account' })
    const attach = vi.spyOn(plaidApp.app.services.connectedAccounts, 'attachBankAccountToken').mockRejectedValueOnce(refusal)
    const response = await user.call('POST', '/me/plaid/link_bank_details', { public_token: publicToken, account_id: accountId })
    attach.mockRestore()
    expect(response.status).toBe(400)
    expect(response.body.details.fields[0]).toMatchObject({ field: 'body.public_token', problem: 'account_refused' })
    expect((await user.call('GET', '/me/debit_account')).body.bank_account).toBeNull()
  })

  it('opens the Content-Security-Policy for Plaid Link, and only this server’s does', async () => {
    const csp = String((await plaidApp.app.inject({ url: '/api/v1/health' })).headers['content-security-policy'])
    expect(csp).toContain("frame-src 'self' https://cdn.plaid.com")
    expect(csp).toContain('https://sandbox.plaid.com')
    expect(String((await testApp().app.inject({ url: '/api/v1/health' })).headers['content-security-policy'])).not.toContain('plaid')
  })

  it('does not offer the sandbox’s link screen', async () => {
    const user = await onboarded('us', () => plaidApp)
    const token = (await user.call('GET', '/me/plaid/link_token')).body.link_token as string
    expect((await user.raw('POST', `/sandbox/plaid/link/${encodeURIComponent(token)}/complete`, { institution: 'success' })).status).toBe(
      404,
    )
  })
})

describe('logs', () => {
  it('never carry the full account number', async () => {
    const loud = await createTestApp({ clock, env: { LOG_LEVEL: 'trace' } })
    // Pino writes through sonic-boom with fs.writeSync / fs.write; collect both.
    const written: string[] = []
    const originalWriteSync = fs.writeSync
    const originalWrite = fs.write
    const collect = (data: unknown) => {
      written.push(typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : String(data))
    }
    fs.writeSync = ((fd: number, data: unknown, ...rest: unknown[]) => {
      if (fd === 1 || fd === 2) {
        collect(data)
        return typeof data === 'string' ? Buffer.byteLength(data) : (data as Buffer).length
      }
      return (originalWriteSync as (...args: unknown[]) => number)(fd, data, ...rest)
    }) as typeof fs.writeSync
    fs.write = ((fd: number, data: unknown, ...rest: unknown[]) => {
      if (fd === 1 || fd === 2) {
        collect(data)
        const callback = rest.at(-1)
        const size = typeof data === 'string' ? Buffer.byteLength(data) : (data as Buffer).length
        if (typeof callback === 'function') process.nextTick(() => (callback as (...args: unknown[]) => void)(null, size))
        return
      }
      return (originalWrite as (...args: unknown[]) => void)(fd, data, ...rest)
    }) as typeof fs.write
    try {
      const user = await onboarded('gb', () => loud)
      await user.call('POST', '/me/debit_account', { account_holder_name: 'Ada', sort_code: '123456', account_number: '98765432' })
      await user.call('POST', '/me/debit_account', { account_holder_name: 'Ada', sort_code: '123456', account_number: '9876543x' })
      await user.call('GET', '/me/debit_account')
      const us = await onboarded('us', () => loud)
      const token = (await us.call('GET', '/me/plaid/link_token')).body.link_token as string
      const completed = await us.raw('POST', `/sandbox/plaid/link/${token}/complete`, { institution: 'success' })
      await us.call('POST', '/me/plaid/link_bank_details', {
        public_token: completed.body.public_token,
        account_id: completed.body.accounts[0].id,
      })
    } finally {
      fs.writeSync = originalWriteSync
      fs.write = originalWrite
      await loud.close()
    }
    const log = written.join('')
    expect(log).toContain('/api/v1/me/debit_account') // the capture works
    expect(log).not.toContain('98765432')
    expect(log).not.toContain('9876543x')
    expect(log).not.toContain('1111222233336789')
  })
})

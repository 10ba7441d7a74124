import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PlaidFake, startPlaidFake } from '../../testing/plaid-fake.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { PlaidBankLink, PlaidRequestError } from './plaid.ts'
import type { BankLink } from './port.ts'
import { SandboxBankLink } from './sandbox.ts'

/**
 * The bank-link port's contract, run against the sandbox bank link and the
 * Plaid adapter (against a local stateful fake of Plaid's API), each chosen
 * by configuration as `npm start` would: the same expectations, each link
 * screen driven the way the browser drives it (the sandbox's complete call;
 * Plaid Link, played by the fake).
 */
interface Harness {
  testApp: TestApp
  bankLink: BankLink
  userId: string
  /** The browser's part: the link screen opened with the token, the test institution's login done, an account chosen. */
  completeLink(linkToken: string, outcome: 'success' | 'institution_error'): Promise<{ publicToken: string; accountId: string }>
  close(): Promise<void>
}

const clock = new TestClock(new Date('2026-11-24T09:00:00Z'))

async function startApp(env: Record<string, string>): Promise<{ testApp: TestApp; userId: string }> {
  const testApp = await createTestApp({ clock, env })
  const token = await testApp.tokenFor('bank-link-contract@example.com', { firstName: 'Grace', lastName: 'Hopper' })
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/v1/me/personal/set_active_country',
    headers: { authorization: `Bearer ${token}` },
    payload: { country_code: 'us' },
  })
  expect(response.statusCode).toBe(204)
  const user = await testApp.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'bank-link-contract@example.com')
    .executeTakeFirstOrThrow()
  return { testApp, userId: user.id }
}

async function sandboxHarness(): Promise<Harness> {
  const { testApp, userId } = await startApp({})
  const bankLink = testApp.app.services.bankLink
  if (!(bankLink instanceof SandboxBankLink)) throw new Error('expected the sandbox bank link without Plaid keys')
  return {
    testApp,
    bankLink,
    userId,
    completeLink: async (linkToken, outcome) => {
      const completed = await bankLink.completeLink({
        linkToken,
        institution: outcome === 'success' ? 'success' : 'failure',
        now: clock.now(),
      })
      if (!completed.ok || !completed.accounts[0]) throw new Error('the sandbox link screen refused the link token')
      return { publicToken: completed.publicToken, accountId: completed.accounts[0].id }
    },
    close: () => testApp.close(),
  }
}

async function plaidHarness(fake: PlaidFake): Promise<Harness> {
  const { testApp, userId } = await startApp({ PLAID_CLIENT_ID: fake.clientId, PLAID_SECRET: fake.secret, PLAID_API_URL: fake.url })
  const bankLink = testApp.app.services.bankLink
  if (!(bankLink instanceof PlaidBankLink)) throw new Error('expected Plaid with PLAID_CLIENT_ID and PLAID_SECRET set')
  return {
    testApp,
    bankLink,
    userId,
    completeLink: async (linkToken, outcome) => {
      const { publicToken, accounts } = fake.completeLink(linkToken)
      const checking = accounts.find((account) => account.subtype === 'checking')
      if (!checking) throw new Error('the fake gave no checking account')
      // The bank wants the user to log in again before the server exchanges the token.
      if (outcome === 'institution_error') fake.requireLogin(publicToken)
      return { publicToken, accountId: checking.account_id }
    },
    close: () => testApp.close(),
  }
}

let fake: PlaidFake
beforeAll(async () => {
  fake = await startPlaidFake()
})
afterAll(async () => {
  await fake.close()
})

describe.each([
  ['sandbox', () => sandboxHarness()],
  ['plaid', () => plaidHarness(fake)],
] as const)('the %s bank link', (name, start) => {
  let harness: Harness
  beforeAll(async () => {
    harness = await start()
  })
  afterAll(async () => {
    await harness.close()
  })
  const exchange = (publicToken: string, accountId: string) =>
    harness.bankLink.exchangePublicToken({ userId: harness.userId, publicToken, accountId, now: clock.now() })
  const linked = async (outcome: 'success' | 'institution_error' = 'success') => {
    const { linkToken } = await harness.bankLink.createLinkToken({ userId: harness.userId, now: clock.now() })
    return harness.completeLink(linkToken, outcome)
  }

  it('names itself, for the browser to open the right link screen', () => {
    expect(harness.bankLink.name).toBe(name)
  })

  it('gives a link token that lasts a while', async () => {
    const { linkToken, expiresAt } = await harness.bankLink.createLinkToken({ userId: harness.userId, now: clock.now() })
    expect(linkToken).toMatch(/^link-sandbox-/)
    expect(expiresAt.getTime()).toBeGreaterThan(clock.now().getTime() + 30 * 60 * 1000)
  })

  it('exchanges a public token for a US checking account that payouts can reach', async () => {
    const { publicToken, accountId } = await linked()
    const result = await exchange(publicToken, accountId)
    expect(result).toMatchObject({ ok: true, account: { country: 'us', currency: 'usd', accountType: 'checking' } })
    if (!result.ok) return
    expect(result.account.bankName).not.toBe('')
    expect(result.account.mask).toMatch(/^\d{4}$/)
    const { destination } = result.account
    if (destination.kind === 'provider_token') expect(destination.token).toMatch(/^btok_/)
    else
      expect(destination).toMatchObject({
        routingNumber: expect.stringMatching(/^\d{9}$/),
        accountNumber: expect.stringMatching(/^\d{4,17}$/),
      })
  })

  it('spends a public token on its first exchange', async () => {
    const { publicToken, accountId } = await linked()
    expect((await exchange(publicToken, accountId)).ok).toBe(true)
    expect(await exchange(publicToken, accountId)).toMatchObject({ ok: false, reason: 'invalid_public_token' })
  })

  it('refuses a public token it never issued', async () => {
    expect(await exchange('public-sandbox-00000000-0000-4000-8000-000000000000', 'any')).toMatchObject({
      ok: false,
      reason: 'invalid_public_token',
    })
  })

  it('refuses an account that is not of this link', async () => {
    const { publicToken } = await linked()
    expect(await exchange(publicToken, 'not-an-account-of-this-link')).toMatchObject({ ok: false, reason: 'invalid_account_id' })
  })

  it('answers an institution error when the bank refused the link', async () => {
    const { publicToken, accountId } = await linked('institution_error')
    expect(await exchange(publicToken, accountId)).toMatchObject({ ok: false, reason: 'institution_error' })
  })
})

describe('Plaid against its fake', () => {
  const plaidFor = (overrides: Partial<{ clientId: string; secret: string }> = {}) =>
    new PlaidBankLink({ clientId: overrides.clientId ?? fake.clientId, secret: overrides.secret ?? fake.secret, apiUrl: fake.url })

  it('asks for a link token as Plaid documents it: credentials in the body, Auth on US accounts, the user by our id', async () => {
    const before = fake.requests.length
    await plaidFor().createLinkToken({ userId: 'user-123', now: clock.now() })
    const request = fake.requests.slice(before).find((candidate) => candidate.path === '/link/token/create')
    expect(request?.body).toMatchObject({
      client_id: fake.clientId,
      secret: fake.secret,
      client_name: 'Pactum',
      country_codes: ['US'],
      products: ['auth'],
      user: { client_user_id: 'user-123' },
      account_filters: { depository: { account_subtypes: ['checking', 'savings'] } },
    })
    expect(request?.headers['plaid-version']).toBe('2020-09-14')
  })

  it('follows link token, public token, access token, Stripe token, with the same access token throughout', async () => {
    const plaid = plaidFor()
    const before = fake.requests.length
    const { linkToken } = await plaid.createLinkToken({ userId: 'user-flow', now: clock.now() })
    const { publicToken, accounts } = fake.completeLink(linkToken)
    const savings = accounts.find((account) => account.subtype === 'savings')
    const result = await plaid.exchangePublicToken({
      userId: 'user-flow',
      publicToken,
      accountId: savings?.account_id ?? '',
      now: clock.now(),
    })
    expect(result).toMatchObject({ ok: true, account: { accountType: 'savings', mask: '1111', bankName: 'First Platypus Bank' } })
    const paths = fake.requests.slice(before).map((request) => request.path)
    expect(paths).toEqual([
      '/link/token/create',
      '/item/public_token/exchange',
      '/accounts/get',
      '/processor/stripe/bank_account_token/create',
    ])
    const [, , accountsGet, processor] = fake.requests.slice(before)
    expect(processor?.body.access_token).toBe(accountsGet?.body.access_token)
    expect(processor?.body.account_id).toBe(savings?.account_id)
    if (result.ok && result.account.destination.kind === 'provider_token') {
      expect(fake.stripeTokens.get(result.account.destination.token)).toMatchObject({ accountId: savings?.account_id })
    } else {
      throw new Error('expected a Stripe bank-account token')
    }
  })

  it('refuses a credit card as a payout account', async () => {
    const plaid = plaidFor()
    const { linkToken } = await plaid.createLinkToken({ userId: 'user-card', now: clock.now() })
    const { publicToken, accounts } = fake.completeLink(linkToken)
    const card = accounts.find((account) => account.type === 'credit')
    expect(
      await plaid.exchangePublicToken({ userId: 'user-card', publicToken, accountId: card?.account_id ?? '', now: clock.now() }),
    ).toMatchObject({
      ok: false,
      reason: 'invalid_account_id',
    })
  })

  it('throws on wrong credentials, naming Plaid’s code and not the secret', async () => {
    const wrongSecret = 'f'.repeat(30)
    const error = await plaidFor({ secret: wrongSecret })
      .createLinkToken({ userId: 'user-1', now: clock.now() })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(PlaidRequestError)
    expect((error as PlaidRequestError).plaidErrorCode).toBe('INVALID_API_KEYS')
    expect((error as Error).message).not.toContain(wrongSecret)
  })

  it('throws when Plaid is down, rather than blaming the seller’s bank', async () => {
    const plaid = plaidFor()
    const { linkToken } = await plaid.createLinkToken({ userId: 'user-outage', now: clock.now() })
    const { publicToken, accounts } = fake.completeLink(linkToken)
    fake.failNext(1)
    await expect(
      plaid.exchangePublicToken({ userId: 'user-outage', publicToken, accountId: accounts[0]?.account_id ?? '', now: clock.now() }),
    ).rejects.toThrow(/INTERNAL_SERVER_ERROR/)
  })

  it('plays Plaid’s sandbox shortcut: user_good / pass_good give a public token, other credentials do not', async () => {
    const call = (options: object) =>
      fetch(`${fake.url}/sandbox/public_token/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'plaid-version': '2020-09-14' },
        body: JSON.stringify({
          client_id: fake.clientId,
          secret: fake.secret,
          institution_id: 'ins_109508',
          initial_products: ['auth'],
          options,
        }),
      })
    const good = await call({ override_username: 'user_good', override_password: 'pass_good' })
    expect(good.status).toBe(200)
    const publicToken = ((await good.json()) as { public_token: string }).public_token
    expect(publicToken).toMatch(/^public-sandbox-/)
    const bad = await call({ override_username: 'user_good', override_password: 'wrong' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ error_type: 'ITEM_ERROR', error_code: 'INVALID_CREDENTIALS' })
  })
})

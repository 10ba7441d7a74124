import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { startStripeFake, type StripeFake } from '../../testing/stripe-fake.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { stripeWebhookPath } from './stripe-webhook.ts'

/*
 * A seller's onboarding over the Stripe adapter against the fake: what
 * Pactum's screens collect reaches the connected account (who they are,
 * where they live, the terms with the IP they were accepted from), what
 * Stripe refuses names the field, and what only Stripe's own page collects
 * is reached through an account link.
 */

let fake: StripeFake
let testApp: TestApp
let call: ReturnType<typeof apiCaller<'seller'>>

const details = {
  name: { first: 'Uma', last: 'Seller' },
  dob: { day: 14, month: 3, year: 1988 },
  address: { line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105' },
  phone: '+14155550123',
}

beforeEach(async () => {
  const clock = new TestClock(new Date('2026-11-24T10:00:00Z'))
  fake = await startStripeFake({ now: () => clock.now() })
  testApp = await createTestApp({ clock, env: { ...fake.env, PUBLIC_URL: 'https://pactum.test' } })
  fake.setWebhookTarget(
    async ({ headers, payload }) => (await testApp.app.inject({ method: 'POST', url: stripeWebhookPath, headers, payload })).statusCode,
  )
  call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: { firstName: 'Uma' } }))
  expect((await call('seller', 'POST', '/api/v1/me/personal/set_active_country', { country_code: 'us' })).status).toBe(204)
}, 60_000)
afterEach(async () => {
  await testApp.close()
  await fake.close()
})

const accountId = async () =>
  (await testApp.database.db.selectFrom('stripe_connected_accounts').select('account_id').executeTakeFirstOrThrow()).account_id
const accountUpdates = (id: string) =>
  fake.requests.filter((request) => request.method === 'POST' && request.path === `/v1/accounts/${id}` && request.params.individual)
const requirements = async () => (await call('seller', 'GET', '/api/v1/me/personal/payout_requirements')).body

/** Uma's US checking account as her payout account. */
async function addBankAccount() {
  const bank = await call('seller', 'POST', '/api/v1/me/debit_account', {
    account_holder_name: 'Uma Seller',
    routing_number: '110000000',
    account_number: '000123456789',
    account_type: 'checking',
  })
  expect(bank.status).toBe(200)
}

/** Terms and a bank account: the account exists from here on. */
async function withAccount() {
  expect((await call('seller', 'POST', '/api/v1/me/accept_tos_direct', undefined, { 'user-agent': 'Mozilla/5.0 (Test)' })).status).toBe(200)
  await addBankAccount()
  return accountId()
}

/** Details saved in Pactum that Stripe lost (their forward never arrived, as if Stripe had been unreachable): the name is due again. */
async function withSavedDetailsStripeLost() {
  const id = await withAccount()
  expect((await call('seller', 'PUT', '/api/v1/me/personal', details)).status).toBe(200)
  await testApp.app.services.connectedAccounts.updateAccountProfile({
    accountId: id,
    profile: {
      firstName: '',
      lastName: '',
      email: 'uma@example.com',
      phone: null,
      dob: null,
      address: null,
      businessUrl: null,
      tosAcceptance: null,
    },
    idempotencyKey: 'test:lost',
  })
  return id
}

describe('the seller’s profile on the connected account', () => {
  it('forwards the terms with their IP and browser when the account is created, and the details when they are saved', async () => {
    const id = await withAccount()
    const [created] = accountUpdates(id)
    expect(created?.params).toMatchObject({
      tos_acceptance: {
        date: String(Math.floor(new Date('2026-11-24T10:00:00Z').getTime() / 1000)),
        ip: '127.0.0.1',
        user_agent: 'Mozilla/5.0 (Test)',
      },
      business_profile: { mcc: '5999', product_description: expect.any(String) },
    })
    expect((await requirements()).requirements.personal).toEqual(['name', 'dob', 'address', 'phone'])

    expect((await call('seller', 'PUT', '/api/v1/me/personal', details)).status).toBe(200)
    const saved = accountUpdates(id).at(-1)
    expect(saved?.params.individual).toMatchObject({
      first_name: 'Uma',
      last_name: 'Seller',
      phone: '+14155550123',
      dob: { day: '14', month: '3', year: '1988' },
      address: { line1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105' },
    })
    expect(saved?.idempotencyKey).toMatch(/^account-profile:/)
    const after = await requirements()
    expect(after.requirements.personal).toEqual([])
    expect(after.requirements.other).not.toContain('provider_onboarding')
  })

  it('answers a detail Stripe refuses naming the field, and keeps asking for it', async () => {
    await withAccount()
    const refused = await call('seller', 'PUT', '/api/v1/me/personal', { ...details, address: { ...details.address, postal_code: '9410' } })
    expect(refused).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { field: 'body.address.postal_code' } } })
    // Saved by Pactum, refused by Stripe (the whole update, as Stripe does): due until Stripe takes it.
    const id = await accountId()
    const beforeReads = accountUpdates(id).length
    expect((await requirements()).requirements.personal).toContain('address')
    // The first read tries the saved profile once more; Stripe refuses it again, and later reads do not ask.
    expect(accountUpdates(id).length).toBe(beforeReads + 1)
    expect((await requirements()).requirements.personal).toContain('address')
    expect((await requirements()).requirements.personal).toContain('address')
    expect(accountUpdates(id).length).toBe(beforeReads + 1)
    expect((await call('seller', 'PUT', '/api/v1/me/personal', details)).status).toBe(200)
    expect((await requirements()).requirements.personal).toEqual([])
  })

  it('asks for the terms again when their IP was never kept', async () => {
    expect((await call('seller', 'POST', '/api/v1/me/accept_tos_direct')).status).toBe(200)
    // An acceptance from before Pactum kept where it came from.
    await testApp.database.db.updateTable('users').set({ tos_accepted_ip: null }).execute()
    expect((await call('seller', 'PUT', '/api/v1/me/personal', details)).status).toBe(200)
    await addBankAccount()
    expect(accountUpdates(await accountId()).at(-1)?.params.tos_acceptance).toBeUndefined()
    expect(await call('seller', 'GET', '/api/v1/me/personal/payout_requirements')).toMatchObject({
      status: 409,
      body: { code: 'tos_not_accepted' },
    })

    expect((await call('seller', 'POST', '/api/v1/me/accept_tos_direct')).status).toBe(200)
    expect(accountUpdates(await accountId()).at(-1)?.params.tos_acceptance).toMatchObject({ ip: '127.0.0.1' })
    expect((await requirements()).requirements.personal).toEqual([])
  })

  it('forwards the profile again when Stripe lacks what Pactum has', async () => {
    const id = await withSavedDetailsStripeLost()
    expect((await requirements()).requirements.personal).toEqual([])
    expect(accountUpdates(id).at(-1)?.params.individual).toMatchObject({ first_name: 'Uma', last_name: 'Seller' })
    expect(accountUpdates(id).at(-1)?.idempotencyKey).toMatch(/:repair$/)
  })

  it('tries a profile Stripe could not be reached for again on the next read', async () => {
    const id = await withSavedDetailsStripeLost()
    fake.failNext('POST', `/v1/accounts/${id}`)
    expect((await requirements()).requirements.personal).toEqual(['name'])
    expect((await requirements()).requirements.personal).toEqual([])
    expect(accountUpdates(id).filter((request) => request.idempotencyKey?.endsWith(':repair'))).toHaveLength(2)
  })
})

describe('Stripe’s own onboarding page', () => {
  it('links to it for what Pactum does not collect, and not once it is done', async () => {
    const id = await withAccount()
    expect((await call('seller', 'PUT', '/api/v1/me/personal', details)).status).toBe(200)
    expect(await call('seller', 'POST', '/api/v1/me/account_onboarding_link', {})).toMatchObject({
      status: 409,
      body: { code: 'onboarding_not_required' },
    })

    fake.requireMore(id, ['individual.political_exposure'])
    expect((await requirements()).requirements.other).toContain('provider_onboarding')
    const link = await call('seller', 'POST', '/api/v1/me/account_onboarding_link', { return_url: '/profile/details?onboarding=returned' })
    expect(link).toMatchObject({ status: 200, body: { url: expect.stringContaining(`/setup/e/${id}/`) } })
    const created = fake.requests.find((request) => request.path === '/v1/account_links')
    expect(created?.params).toMatchObject({
      account: id,
      type: 'account_onboarding',
      collection_options: { fields: 'currently_due' },
      return_url: 'https://pactum.test/profile/details?onboarding=returned',
      refresh_url: 'https://pactum.test/profile/details?onboarding=returned',
    })

    fake.completeOnboarding(id)
    expect((await requirements()).requirements.other).not.toContain('provider_onboarding')
  })

  it('refuses a return address off the site', async () => {
    await withAccount()
    const refused = await call('seller', 'POST', '/api/v1/me/account_onboarding_link', { return_url: 'https://evil.example/' })
    expect(refused).toMatchObject({ status: 400, body: { details: { field: 'body.return_url' } } })
  })
})

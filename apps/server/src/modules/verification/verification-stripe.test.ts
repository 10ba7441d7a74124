import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { stripeWebhookPath } from '../../adapters/payment-provider/stripe-webhook.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { startStripeFake, type StripeFake } from '../../testing/stripe-fake.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { setVerificationSessionId } from './verification-repository.ts'

/*
 * A seller verifying with Stripe Identity over the Stripe adapter against
 * the fake (decision 111): the session is made for the Person of their
 * connected account, Stripe attaches the document there, and Pactum reads
 * and uploads no file. A session made before, for no account, is replaced.
 */

let fake: StripeFake
let testApp: TestApp
let call: ReturnType<typeof apiCaller<'seller'>>

beforeEach(async () => {
  const clock = new TestClock(new Date('2026-11-24T10:00:00Z'))
  fake = await startStripeFake({ now: () => clock.now() })
  testApp = await createTestApp({
    clock,
    env: { ...fake.env, PUBLIC_URL: 'https://pactum.test', IDENTITY_VERIFICATION_METHOD: 'stripe_identity' },
  })
  fake.setWebhookTarget(
    async ({ headers, payload }) => (await testApp.app.inject({ method: 'POST', url: stripeWebhookPath, headers, payload })).statusCode,
  )
  call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: { firstName: 'Vera' } }))
  expect((await call('seller', 'POST', '/api/v1/me/personal/set_active_country', { country_code: 'de' })).status).toBe(204)
  expect((await call('seller', 'POST', '/api/v1/me/accept_tos_direct')).status).toBe(200)
}, 60_000)
afterEach(async () => {
  await testApp.close()
  await fake.close()
})

const status = async () => (await call('seller', 'GET', '/api/v1/me/verification_status')).body
const openSession = async () => {
  const response = await call('seller', 'GET', '/api/v1/me/verification_session?return_url=/profile/details')
  expect(response.status).toBe(200)
  return response.body as { verification_session_id: string; verification_session_status: string }
}
const accountId = async () =>
  (await testApp.database.db.selectFrom('stripe_connected_accounts').select('account_id').executeTakeFirstOrThrow()).account_id
const identityDocument = async () => (await call('seller', 'GET', '/api/v1/me/personal/identity_document/verification_status')).body
const otherRequirements = async () => {
  const response = await call('seller', 'GET', '/api/v1/me/personal/payout_requirements')
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body.requirements.other as string[]
}

describe('a seller verifying with Stripe Identity', () => {
  it('ends with a verified identity document on the connected account, and no file read or uploaded by Pactum', async () => {
    const session = await openSession()
    const account = await accountId()
    const created = fake.requests.find((request) => request.method === 'POST' && request.path === '/v1/identity/verification_sessions')
    expect(created?.params.related_person).toEqual({ account, person: expect.stringMatching(/^person_/) })
    expect(await otherRequirements()).toContain('identity_document')

    fake.completeIdentity(session.verification_session_id, 'verified')
    await fake.settle()
    expect(await status()).toEqual({
      verification_method: 'stripe_identity',
      verified: true,
      message: '',
      verification_session_id: session.verification_session_id,
      verification_session_status: 'verified',
    })
    expect((await identityDocument()).front.status).toBe('verified')
    expect(await otherRequirements()).not.toContain('identity_document')
    // Stripe attached it: no download of the session's images, no upload, no attaching update by Pactum.
    expect(fake.requests.filter((request) => request.path.startsWith('/v1/files'))).toEqual([])
    expect(
      fake.requests.filter(
        (request) => request.path === `/v1/accounts/${account}` && JSON.stringify(request.params).includes('verification'),
      ),
    ).toEqual([])
    expect((await openSession()).verification_session_id).toBe(session.verification_session_id)
  })

  it('asks a seller whose session was made for no account (before decision 111) to verify again, with a session for their account', async () => {
    // A session as Pactum made them before: for no account, and verified; its document never reached the account.
    const userId = (
      await testApp.database.db.selectFrom('users').select('id').where('email', '=', 'seller@example.com').executeTakeFirstOrThrow()
    ).id
    const old = await testApp.app.services.identity.createVerificationSession({
      userId,
      returnUrl: '/profile/details',
      idempotencyKey: 'verification-session:old',
    })
    await setVerificationSessionId(testApp.database.db, userId, old.id)
    fake.completeIdentity(old.id, 'verified')
    await fake.settle()
    expect(await status()).toEqual({
      verification_method: 'stripe_identity',
      verified: false,
      message: expect.stringContaining('once more'),
      verification_session_id: null,
      verification_session_status: 'not_created',
    })

    const renewed = await openSession()
    expect(renewed.verification_session_id).not.toBe(old.id)
    expect(renewed.verification_session_status).toBe('requires_input')
    expect(await status()).toMatchObject({ verified: false, message: '', verification_session_id: renewed.verification_session_id })
    fake.completeIdentity(renewed.verification_session_id, 'verified')
    await fake.settle()
    expect(await status()).toMatchObject({ verified: true, verification_session_status: 'verified' })
    expect((await identityDocument()).front.status).toBe('verified')
    expect(fake.requests.filter((request) => request.path.startsWith('/v1/files'))).toEqual([])
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { accountIdForEmail } from './oidc/account-id.ts'
import { createAccount } from './oidc/accounts.ts'
import { SoftwareAuthenticator } from '../../testing/software-authenticator.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { testPasswordCost } from '../../testing/test-password-cost.ts'

/** Issue 30: passkeys added from the Account page (the sign-in with them is in modules/sign-in/oidc/passkey-sign-in.test.ts). */
let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

const password = 'correct horse 42'
// createTestApp's PUBLIC_URL: the relying party is its host.
const rp = { id: 'localhost', origin: 'http://localhost:3999' }

async function start() {
  testApp = await createTestApp()
  const { db } = testApp.database
  await createAccount(db, { email: 'anna@example.com', password, firstName: 'Anna', lastName: 'Nowak', locale: null }, testPasswordCost)
  const token = await testApp.tokenFor('anna@example.com')
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const response = await testApp!.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    })
    return { status: response.statusCode, body: response.body ? response.json() : undefined }
  }
  return { db, call }
}

describe('passkeys on the Account page', () => {
  it('adds one after the password, lists it, and removes it', async () => {
    const { call } = await start()
    expect(await call('GET', '/me/passkeys')).toEqual({ status: 200, body: [] })
    const options = await call('POST', '/me/passkeys/registration_options', { current_password: password })
    expect(options.status).toBe(200)
    expect(options.body).toMatchObject({
      rp: { id: 'localhost', name: 'Pactum' },
      user: { name: 'anna@example.com' },
      authenticatorSelection: { residentKey: 'required' },
      attestation: 'none',
    })

    const authenticator = new SoftwareAuthenticator(rp)
    const added = await call('POST', '/me/passkeys', { name: 'Laptop', response: authenticator.create(options.body) })
    expect(added).toMatchObject({
      status: 201,
      body: { name: 'Laptop', last_used: null, id: authenticator.credentialId.toString('base64url') },
    })
    expect((await call('GET', '/me/passkeys')).body).toEqual([added.body])

    // The next options exclude it, so the same authenticator is not registered twice.
    const next = await call('POST', '/me/passkeys/registration_options', { current_password: password })
    expect(next.body.excludeCredentials).toEqual([expect.objectContaining({ id: added.body.id })])

    expect((await call('DELETE', `/me/passkeys/${added.body.id}`)).status).toBe(204)
    expect((await call('GET', '/me/passkeys')).body).toEqual([])
    expect(await call('DELETE', `/me/passkeys/${added.body.id}`)).toMatchObject({ status: 404, body: { code: 'not_found' } })
  })

  it('asks for the right password before it hands out options', async () => {
    const { call } = await start()
    expect(await call('POST', '/me/passkeys/registration_options', { current_password: 'wrong horse 42' })).toMatchObject({
      status: 403,
      body: { code: 'incorrect_password' },
    })
  })

  it('refuses an answer to no challenge, from another origin, or to a challenge already used', async () => {
    const { call, db } = await start()
    const authenticator = new SoftwareAuthenticator(rp)
    // Nothing asked yet: a made-up challenge.
    const unasked = await call('POST', '/me/passkeys', {
      name: 'Key',
      response: authenticator.create({ challenge: 'bWFkZS11cA', user: { id: 'eA' } }),
    })
    expect(unasked).toMatchObject({ status: 400, body: { code: 'passkey_not_verified' } })

    const options = (await call('POST', '/me/passkeys/registration_options', { current_password: password })).body
    const phished = await call('POST', '/me/passkeys', {
      name: 'Key',
      response: authenticator.create(options, { origin: 'https://pactum.example.evil' }),
    })
    expect(phished).toMatchObject({ status: 400, body: { code: 'passkey_not_verified' } })

    const answer = authenticator.create(options)
    expect((await call('POST', '/me/passkeys', { name: 'Key', response: answer })).status).toBe(201)
    const again = await call('POST', '/me/passkeys', { name: 'Key again', response: answer })
    expect(again).toMatchObject({ status: 400, body: { code: 'passkey_not_verified' } })
    expect(await db.selectFrom('passkeys').select('account_id').execute()).toEqual([{ account_id: accountIdForEmail('anna@example.com') }])
  })

  it('lets nobody remove another account’s passkey', async () => {
    const { call, db } = await start()
    const options = (await call('POST', '/me/passkeys/registration_options', { current_password: password })).body
    const mine = (await call('POST', '/me/passkeys', { name: 'Mine', response: new SoftwareAuthenticator(rp).create(options) })).body
    await createAccount(db, { email: 'bo@example.com', password, firstName: 'Bo', lastName: 'Berg', locale: null }, testPasswordCost)
    const bo = await testApp!.tokenFor('bo@example.com')
    const response = await testApp!.app.inject({
      method: 'DELETE',
      url: `/api/v1/me/passkeys/${mine.id}`,
      headers: { authorization: `Bearer ${bo}` },
    })
    expect(response.statusCode).toBe(404)
    expect((await call('GET', '/me/passkeys')).body).toHaveLength(1)
  })

  it('is not offered to people of an external issuer', async () => {
    testApp = await createTestApp()
    const token = await testApp.tokenFor('minted@example.com')
    const response = await testApp.app.inject({ url: '/api/v1/me/passkeys', headers: { authorization: `Bearer ${token}` } })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toMatchObject({ code: 'passkeys_unavailable' })
  })
})

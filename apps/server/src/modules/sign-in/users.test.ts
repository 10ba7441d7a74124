import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

/**
 * Issue 30: nothing passes to an address nobody proved. The API grants the
 * ADMIN_EMAILS role only to a confirmed address, and a user row whose
 * address was proved once is refused to later tokens that do not prove it.
 */
let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

async function me(token: string) {
  const response = await testApp!.app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })
  return { status: response.statusCode, body: response.json() }
}

describe('the ADMIN_EMAILS role', () => {
  it('waits for the address to be confirmed, and says it is pending', async () => {
    testApp = await createTestApp({ env: { ADMIN_EMAILS: 'ops@example.com' } })
    const unconfirmed = await me(await testApp.tokenFor('ops@example.com'))
    expect(unconfirmed).toMatchObject({ status: 200, body: { roles: [], pending_roles: ['admin'], email_verified: false } })
    const admin = await testApp.app.inject({
      url: '/api/v1/admin/transactions',
      headers: { authorization: `Bearer ${await testApp.tokenFor('ops@example.com')}` },
    })
    expect(admin.statusCode).toBe(403)

    expect(unconfirmed.body.pending_role_needs).toEqual(['email_confirmation', 'second_factor'])

    const confirmed = await me(await testApp.tokenFor('ops@example.com', { emailVerified: true, amr: ['mfa', 'otp', 'pwd'] }))
    expect(confirmed).toMatchObject({
      status: 200,
      body: { roles: ['admin'], pending_roles: [], pending_role_needs: [], email_verified: true },
    })
  })

  it('waits for a sign-in with a second factor (ADMIN_REQUIRE_MFA, on unless turned off)', async () => {
    testApp = await createTestApp({ env: { ADMIN_EMAILS: 'ops@example.com' } })
    const passwordOnly = await me(await testApp.tokenFor('ops@example.com', { emailVerified: true, amr: ['pwd'] }))
    expect(passwordOnly.body).toMatchObject({ roles: [], pending_roles: ['admin'], pending_role_needs: ['second_factor'] })
    const admin = await testApp.app.inject({
      url: '/api/v1/admin/transactions',
      headers: { authorization: `Bearer ${await testApp.tokenFor('ops@example.com', { emailVerified: true, amr: ['pwd'] })}` },
    })
    expect(admin.statusCode).toBe(403)
    // A passkey that checked the person counts as two factors; one only touched does not.
    expect((await me(await testApp.tokenFor('ops@example.com', { emailVerified: true, amr: ['mfa', 'pop', 'user'] }))).body.roles).toEqual([
      'admin',
    ])
    expect((await me(await testApp.tokenFor('ops@example.com', { emailVerified: true, amr: ['pop'] }))).body.roles).toEqual([])
    await testApp.close()

    testApp = await createTestApp({ env: { ADMIN_EMAILS: 'ops@example.com,ops2@example.com', ADMIN_REQUIRE_MFA: 'false' } })
    expect((await me(await testApp.tokenFor('ops@example.com', { emailVerified: true }))).body).toMatchObject({
      roles: ['admin'],
      pending_role_needs: [],
    })
    expect((await me(await testApp.tokenFor('ops2@example.com'))).body).toMatchObject({
      roles: [],
      pending_role_needs: ['email_confirmation'],
    })
  })

  it('is not pending for an address that is not listed, nor for an admin by the token claim', async () => {
    testApp = await createTestApp({ env: { ADMIN_EMAILS: 'ops@example.com' } })
    expect((await me(await testApp.tokenFor('anna@example.com'))).body).toMatchObject({ roles: [], pending_roles: [] })
    expect((await me(await testApp.tokenFor('root@example.com', { admin: true }))).body).toMatchObject({
      roles: ['admin'],
      pending_roles: [],
    })
  })
})

describe('a user row whose address was proved', () => {
  it('is refused to a later token that does not prove the address, until it does', async () => {
    testApp = await createTestApp()
    const owner = await me(await testApp.tokenFor('owner@example.com', { emailVerified: true }))
    expect(owner.status).toBe(200)

    // Someone registers the same address later: same subject, nothing proved.
    const later = await me(await testApp.tokenFor('owner@example.com', { issuedAt: new Date(Date.now() + 2000) }))
    expect(later).toMatchObject({ status: 403, body: { code: 'email_not_confirmed' } })
    const list = await testApp.app.inject({
      url: '/api/v1/me/transactions',
      headers: { authorization: `Bearer ${await testApp.tokenFor('owner@example.com', { issuedAt: new Date(Date.now() + 2000) })}` },
    })
    expect(list.statusCode).toBe(403)

    // The owner's own tokens keep working.
    expect((await me(await testApp.tokenFor('owner@example.com', { emailVerified: true }))).body.id).toBe(owner.body.id)
  })

  it('still serves the tokens its owner held before confirming', async () => {
    testApp = await createTestApp()
    const before = await testApp.tokenFor('new@example.com', { issuedAt: new Date(Date.now() - 5000) })
    const first = await me(before)
    expect(first).toMatchObject({ status: 200, body: { email_verified: false } })
    // The owner opens the link; the next token proves the address.
    expect((await me(await testApp.tokenFor('new@example.com', { emailVerified: true }))).status).toBe(200)
    expect(await me(before)).toMatchObject({ status: 200, body: { id: first.body.id } })
  })

  it('keeps the moment of the first proof', async () => {
    testApp = await createTestApp()
    await me(await testApp.tokenFor('kept@example.com'))
    const read = () =>
      testApp!.database.db.selectFrom('users').select('email_verified_at').where('email', '=', 'kept@example.com').executeTakeFirstOrThrow()
    expect((await read()).email_verified_at).toBeNull()
    await me(await testApp.tokenFor('kept@example.com', { emailVerified: true }))
    const proved = (await read()).email_verified_at
    expect(proved).toBeInstanceOf(Date)
    await me(await testApp.tokenFor('kept@example.com', { emailVerified: true, firstName: 'Kim' }))
    expect((await read()).email_verified_at).toEqual(proved)
  })
})

import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../testing/api-caller.ts'
import { appPerTest } from '../testing/app-per-test.ts'

const testApps = appPerTest()

async function start(env: Record<string, string> = {}) {
  const testApp = await testApps.open({ env })
  const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, other: {} })
  return { app: testApp.app, call: apiCaller(testApp.app, tokens) }
}

describe('the order of checks: authentication, then authorization, then input', () => {
  it('answers 401 to a signed-out call before looking at its body', async () => {
    const { call } = await start()
    const bad = { role: 'nobody', price: 'free' }
    expect((await call(null, 'POST', '/api/v1/me/transactions', bad)).body.code).toBe('unauthenticated')
    expect((await call(null, 'POST', '/api/v1/p2p/me/transactions', bad)).body.code).toBe('unauthenticated')
    expect((await call(null, 'PUT', '/api/v1/me/personal', { dob: 'yesterday' })).body.code).toBe('unauthenticated')
    expect((await call(null, 'GET', '/api/v1/me/transactions?limit=nine')).body.code).toBe('unauthenticated')
    expect((await call(null, 'POST', '/api/v1/admin/transactions/x/release_funds?to=nobody', {})).body.code).toBe('unauthenticated')
  })

  it('answers 403 to a signed-in non-admin on an admin call before looking at its input', async () => {
    const { call } = await start()
    const refused = await call('seller', 'POST', '/api/v1/admin/transactions/not-an-id/release_funds?to=nobody', {})
    expect(refused).toMatchObject({ status: 403, body: { code: 'not_admin' } })
    expect((await call('seller', 'GET', '/api/v1/admin/transactions?limit=-1')).body.code).toBe('not_admin')
    expect((await call('seller', 'GET', '/api/v1/admin/ledger/verify')).body.code).toBe('not_admin')
  })

  it('names the bad field once the caller may make the call', async () => {
    const { call } = await start()
    const answer = await call('seller', 'POST', '/api/v1/me/transactions', { role: 'nobody' })
    expect(answer).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
    expect(answer.body.error).toMatch(/^body\./)
  })
})

describe('join-code look-ups', () => {
  it('are limited per signed-in user, whatever address a proxy header claims', async () => {
    const { call } = await start({ TRUST_PROXY: 'true' })
    for (let attempt = 0; attempt < 20; attempt++) {
      const answer = await call('buyer', 'GET', '/api/v1/transactions?join_code=ABCDEFGH', undefined, {
        'x-forwarded-for': `203.0.113.${attempt}`,
      })
      expect(answer.body.code).toBe('join_code_not_found')
    }
    const limited = await call('buyer', 'GET', '/api/v1/transactions?join_code=ABCDEFGH', undefined, { 'x-forwarded-for': '198.51.100.7' })
    expect(limited).toMatchObject({ status: 429, body: { code: 'rate_limited' } })
    expect(limited.headers['retry-after']).toBeDefined()
    // Someone else behind the same address is not blocked by that.
    const other = await call('other', 'GET', '/api/v1/transactions?join_code=ABCDEFGH', undefined, { 'x-forwarded-for': '198.51.100.7' })
    expect(other.body.code).toBe('join_code_not_found')
  })
})

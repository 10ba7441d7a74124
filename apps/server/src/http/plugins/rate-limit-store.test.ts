import { afterEach, describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { purgeRateLimits } from '../../db/rate-limit-counts.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  testApp = await createTestApp({ clock })
  const tokens = await partyTokens(testApp.tokenFor, { buyer: {} })
  const call = apiCaller(testApp.app, tokens)
  const lookUp = () => call('buyer', 'GET', '/api/v1/transactions?join_code=ABCDEFGH')
  const lookUpF2f = () => call('buyer', 'GET', '/api/v1/p2p/transactions_by_join_code/ABCDEFGH')
  return { clock, db: testApp.app.services.db, lookUp, lookUpF2f }
}

describe('rate limits in the database', () => {
  it('count in a table every server process shares, and honour what another one counted', async () => {
    const { db, lookUp } = await start()
    expect((await lookUp()).body.code).toBe('join_code_not_found')
    const [row] = await db.selectFrom('rate_limits').selectAll().execute()
    expect(row).toMatchObject({ count: 1 })
    // Another process behind the same load balancer has counted the rest of the minute.
    await db.updateTable('rate_limits').set({ count: 20 }).where('key', '=', row!.key).execute()
    const limited = await lookUp()
    expect(limited).toMatchObject({ status: 429, body: { code: 'rate_limited' } })
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
  })

  it('count each route apart, as the in-memory store does', async () => {
    const { db, lookUp, lookUpF2f } = await start()
    for (let attempt = 0; attempt < 20; attempt++) await lookUp()
    expect((await lookUp()).status).toBe(429)
    // The same user and the same limit, but another route: its own count.
    expect((await lookUpF2f()).body.code).toBe('join_code_not_found')
    expect(await db.selectFrom('rate_limits').select('key').execute()).toHaveLength(2)
  })

  it('count a key made of whatever the client put in the URL', async () => {
    await start()
    // The sandbox counts per address and intent id, read from the path before validation.
    for (const id of ['%00', 'nul%00inside', '%F0%9F%98%80', '%ED%A0%80']) {
      const answer = await testApp!.app.inject({ url: `/sandbox/v1/payment_intents/${id}?client_secret=s` })
      expect(answer.statusCode, id).toBeLessThan(500)
    }
  })

  it('open a new window when the old one has passed, on the app’s clock', async () => {
    const { clock, db, lookUp } = await start()
    for (let attempt = 0; attempt < 20; attempt++) await lookUp()
    expect((await lookUp()).status).toBe(429)
    await clock.moveBy(61)
    expect((await lookUp()).body.code).toBe('join_code_not_found')
    // Old counters are purged a day after their window closed.
    await purgeRateLimits(db, new Date(clock.now().getTime() + 2 * 86_400_000))
    expect(await db.selectFrom('rate_limits').selectAll().execute()).toEqual([])
  })
})

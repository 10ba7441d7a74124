import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Kysely, sql } from 'kysely'
import { type Database, openPostgres } from '../../../db/database.ts'
import type { Database as Tables } from '../../../db/schema.ts'
import { createTestDatabase } from '../../../testing/test-database.ts'
import { beginSignInAttempt, clientKeyOf, noteFailedSignIn, signInSucceeded } from './sign-in-throttle.ts'

let database: Database
beforeEach(async () => {
  database = await createTestDatabase()
})
afterEach(async () => {
  await database.close()
})

/**
 * On PostgreSQL, a pool of its own for the burst, closed and gone before the
 * test database is dropped (pg's pool.end() resolves before its connections
 * have closed, and dropping the database under them is an unhandled error).
 */
async function concurrentHandle(): Promise<{ db: Kysely<Tables>; close(): Promise<void> }> {
  const url = process.env.DATABASE_URL
  if (!url) return { db: database.db, close: async () => {} }
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(database.db)
  const target = new URL(url)
  target.pathname = `/${rows[0]!.name}`
  const other = openPostgres(target.toString())
  return {
    db: other.db,
    close: async () => {
      await other.close()
      const others = sql<{ count: number }>`
        select count(*)::int as count from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`
      await expect.poll(async () => (await others.execute(database.db)).rows[0]?.count).toBe(0)
    },
  }
}

const minute = 60_000
const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, 0) + minutes * minute)
const settings = {
  windowSeconds: 900,
  maxFailuresPerAddress: 5,
  maxFailuresPerClient: 30,
  maxFailuresPerDevice: 10,
  alertAfterFailures: 10,
}
const home = { clientKey: '198.51.100.7' }
const attacker = { clientKey: '203.0.113.9' }
const attempt = (email: string, source: { clientKey: string; deviceKey?: string }, minutes: number) =>
  beginSignInAttempt(database.db, email, source, at(minutes), settings)

describe('sign-in throttle', () => {
  it('allows five attempts per address and client address in 15 minutes, then refuses until the window has passed them', async () => {
    for (const minutes of [0, 1, 2, 3, 4]) {
      expect((await attempt('anna@example.com', attacker, minutes)).allowed).toBe(true)
    }
    const refused = await attempt('ANNA@example.com', attacker, 10)
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 5 * 60 })
    // Refusals do not count: once the first attempt is 15 minutes old, one more is allowed.
    expect((await attempt('anna@example.com', attacker, 15.5)).allowed).toBe(true)
    expect((await attempt('anna@example.com', attacker, 15.6)).allowed).toBe(false)
  })

  it('does not refuse the same address from another client address', async () => {
    for (const minutes of [0, 1, 2, 3, 4, 5, 6]) await attempt('anna@example.com', attacker, minutes)
    expect((await attempt('anna@example.com', home, 7)).allowed).toBe(true)
  })

  it('refuses a client address that tries many addresses', async () => {
    for (let i = 0; i < 30; i++) expect((await attempt(`person${i}@example.com`, attacker, 0)).allowed).toBe(true)
    expect(await attempt('anna@example.com', attacker, 1)).toEqual({ allowed: false, retryAfterSeconds: 14 * 60 })
    expect((await attempt('anna@example.com', home, 1)).allowed).toBe(true)
  })

  it("counts a known browser under its device key only: others' failures do not slow it, its own do", async () => {
    for (let i = 0; i < 10; i++) await attempt('anna@example.com', home, 0)
    expect((await attempt('anna@example.com', home, 1)).allowed).toBe(false)
    const device = { ...home, deviceKey: 'device-of-anna' }
    for (let i = 0; i < 10; i++) expect((await attempt('anna@example.com', device, 1)).allowed).toBe(true)
    // A stolen cookie cannot guess faster, from wherever it is used.
    expect(await attempt('anna@example.com', { ...attacker, deviceKey: 'device-of-anna' }, 2)).toEqual({
      allowed: false,
      retryAfterSeconds: 14 * 60,
    })
  })

  it('counts IPv6 clients by their /64', async () => {
    expect(clientKeyOf('2001:db8:aa:bb:1::7')).toBe('2001:db8:aa:bb::/64')
    expect(clientKeyOf('2001:0db8:00aa:00bb:ffff:1:2:3')).toBe('2001:db8:aa:bb::/64')
    expect(clientKeyOf('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(clientKeyOf('192.0.2.1')).toBe('192.0.2.1')
    for (let i = 0; i < 5; i++) await attempt('anna@example.com', { clientKey: clientKeyOf(`2001:db8:aa:bb::${i + 1}`) }, 0)
    expect((await attempt('anna@example.com', { clientKey: clientKeyOf('2001:db8:aa:bb::99') }, 1)).allowed).toBe(false)
  })

  it("forgets this browser's failures after a successful sign-in, not an attacker's", async () => {
    for (const minutes of [0, 1, 2, 3, 4]) await attempt('anna@example.com', home, minutes)
    for (const minutes of [0, 1, 2, 3, 4]) await attempt('anna@example.com', attacker, minutes)
    await signInSucceeded(database.db, 'anna@example.com', home, at(5), settings)
    expect((await attempt('anna@example.com', home, 6)).allowed).toBe(true)
    expect((await attempt('anna@example.com', attacker, 6)).allowed).toBe(false)
  })

  it('lets only five of a burst of concurrent attempts through', async () => {
    const burst = await concurrentHandle()
    try {
      const results = await Promise.all(
        Array.from({ length: 12 }, () => beginSignInAttempt(burst.db, 'anna@example.com', attacker, at(0), settings)),
      )
      expect(results.filter((result) => result.allowed).length).toBeLessThanOrEqual(5)
    } finally {
      await burst.close()
    }
  })
})

describe('burst alert', () => {
  // As the sign-in page does: a refused attempt is no failure (the password was not even checked).
  const fail = async (source: { clientKey: string }, minutes: number) => {
    if (!(await attempt('anna@example.com', source, minutes)).allowed) return 'refused'
    return noteFailedSignIn(database.db, 'anna@example.com', at(minutes), settings)
  }

  it('tells once when a burst reaches ten failures, with how many addresses, and again only after a quiet window', async () => {
    const alerts = []
    for (let i = 0; i < 25; i++) alerts.push(await fail({ clientKey: `203.0.113.${i % 5}` }, i * 0.1))
    expect(alerts.filter(Boolean)).toEqual([{ since: at(0), failures: 10, addresses: 5 }])
    expect(alerts.findIndex(Boolean)).toBe(9)
    // Still the same burst a few minutes on; a new one after 15 quiet minutes.
    expect(await fail(attacker, 10)).toBeUndefined()
    const later = []
    for (let i = 0; i < 10; i++) later.push(await fail({ clientKey: `198.51.100.${i}` }, 30 + i * 0.1))
    expect(later.filter(Boolean)).toEqual([{ since: at(30), failures: 10, addresses: 10 }])
  })

  it('tells of a slow attacker from one address too: a burst lasts while failures keep coming', async () => {
    const alerts = []
    // Five in any 15 minutes from one address (all the throttle allows), for 20 minutes.
    for (const minutes of [0, 1, 2, 3, 4, 16, 17, 18, 19, 20]) alerts.push(await fail(attacker, minutes))
    expect(alerts).not.toContain('refused')
    expect(alerts.filter(Boolean)).toEqual([{ since: at(0), failures: 10, addresses: 1 }])
  })

  it('tells once of concurrent failures', async () => {
    for (let i = 0; i < 9; i++) await fail({ clientKey: `203.0.113.${i}` }, 0)
    const burst = await concurrentHandle()
    try {
      const alerts = await Promise.all(
        Array.from({ length: 6 }, async (_, i) => {
          await beginSignInAttempt(burst.db, 'anna@example.com', { clientKey: `198.51.100.${i}` }, at(1), settings)
          return noteFailedSignIn(burst.db, 'anna@example.com', at(1), settings)
        }),
      )
      expect(alerts.filter(Boolean)).toHaveLength(1)
    } finally {
      await burst.close()
    }
  })
})

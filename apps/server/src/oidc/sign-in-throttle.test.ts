import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Kysely, sql } from 'kysely'
import { type Database, openPostgres } from '../db/database.ts'
import type { Database as Tables } from '../db/schema.ts'
import { createTestDatabase } from '../testing/test-database.ts'
import { beginSignInAttempt, signInSucceeded } from './sign-in-throttle.ts'

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

describe('sign-in throttle', () => {
  it('allows five attempts in 15 minutes, then refuses until the window has passed them', async () => {
    for (const minutes of [0, 1, 2, 3, 4]) {
      expect((await beginSignInAttempt(database.db, 'anna@example.com', at(minutes))).allowed).toBe(true)
    }
    const refused = await beginSignInAttempt(database.db, 'ANNA@example.com', at(10))
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 5 * 60 })
    // Refusals do not count: once the first attempt is 15 minutes old, one more is allowed.
    expect((await beginSignInAttempt(database.db, 'anna@example.com', at(15.5))).allowed).toBe(true)
    expect((await beginSignInAttempt(database.db, 'anna@example.com', at(15.6))).allowed).toBe(false)
  })

  it('forgets the failures of an account after a successful sign-in', async () => {
    for (const minutes of [0, 1, 2, 3, 4]) await beginSignInAttempt(database.db, 'anna@example.com', at(minutes))
    await signInSucceeded(database.db, 'anna@example.com', at(5))
    expect((await beginSignInAttempt(database.db, 'anna@example.com', at(6))).allowed).toBe(true)
  })

  it('lets only five of a burst of concurrent attempts through', async () => {
    const burst = await concurrentHandle()
    try {
      const results = await Promise.all(
        Array.from({ length: 12 }, () => beginSignInAttempt(burst.db, 'anna@example.com', at(0))),
      )
      expect(results.filter((result) => result.allowed).length).toBeLessThanOrEqual(5)
    } finally {
      await burst.close()
    }
  })
})

import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../testing/test-database.ts'
import type { Database } from './database.ts'
import { countHit, hitCounter, reserveSlot, storedCounterKey } from './rate-limit-counts.ts'

let database: Database
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())
beforeEach(async () => {
  await database.db.deleteFrom('rate_limits').execute()
})

const now = new Date('2026-12-07T10:00:00Z')

describe('countHit', () => {
  it('counts hits in the window the first one opened, and starts again once it has closed', async () => {
    const { db } = database
    expect(await countHit(db, 'key', 60_000, now)).toEqual({ count: 1, windowEndsAt: new Date('2026-12-07T10:01:00Z') })
    expect(await countHit(db, 'key', 60_000, new Date('2026-12-07T10:00:30Z'), 3)).toMatchObject({ count: 4 })
    expect(await countHit(db, 'other', 60_000, now)).toMatchObject({ count: 1 })
    expect(await countHit(db, 'key', 60_000, new Date('2026-12-07T10:01:00Z'))).toEqual({
      count: 1,
      windowEndsAt: new Date('2026-12-07T10:02:00Z'),
    })
  })

  it('sent on its own, commits without waiting for the WAL: its own transaction only', async () => {
    const { db } = database
    const values = { key: storedCounterKey('key'), hits: 1, windowEnd: new Date(now.getTime() + 60_000), now }
    const [relaxed] = await hitCounter(db, values, { relaxed: true })
      .returning(sql<string>`current_setting('synchronous_commit')`.as('commit'))
      .execute()
    expect(relaxed!.commit).toBe('off')
    const [after] = (await sql<{ commit: string }>`select current_setting('synchronous_commit') as commit`.execute(db)).rows
    expect(after!.commit).toBe('on')
  })

  it('inside a database transaction, leaves its commit as it is: whatever else it writes waits for the disk', async () => {
    const settings = await database.db.transaction().execute(async (trx) => {
      await countHit(trx, 'key', 60_000, now)
      return (await sql<{ commit: string }>`select current_setting('synchronous_commit') as commit`.execute(trx)).rows
    })
    expect(settings[0]!.commit).toBe('on')
    // The same call outside a transaction relaxes its own (the test above), so this one decided not to.
    expect(await countHit(database.db, 'key', 60_000, now)).toMatchObject({ count: 2 })
  })
})

describe('reserveSlot', () => {
  it('hands out slots one interval apart from now, and from now again once the line has passed', async () => {
    const { db } = database
    expect(await reserveSlot(db, 'pace', 100, now)).toEqual(now)
    expect(await reserveSlot(db, 'pace', 100, now)).toEqual(new Date(now.getTime() + 100))
    expect(await reserveSlot(db, 'pace', 100, new Date(now.getTime() + 50))).toEqual(new Date(now.getTime() + 200))
    const later = new Date(now.getTime() + 10_000)
    expect(await reserveSlot(db, 'pace', 100, later)).toEqual(later)
  })

  it('commits relaxed on its own, and refuses to run inside a transaction, where that would reach its other writes', async () => {
    const { db } = database
    await expect(db.transaction().execute((trx) => reserveSlot(trx, 'pace', 100, now))).rejects.toThrow(/outside a database transaction/)
    await reserveSlot(db, 'pace', 100, now)
    const [after] = (await sql<{ commit: string }>`select current_setting('synchronous_commit') as commit`.execute(db)).rows
    expect(after!.commit).toBe('on')
  })
})

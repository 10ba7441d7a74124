import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../testing/test-database.ts'
import type { Database } from './database.ts'
import { countHit, hitCounter, reserveSlot, storedCounterKey, takeToken } from './rate-limit-counts.ts'

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

describe('takeToken', () => {
  const at = (ms: number) => new Date(now.getTime() + ms)

  it('gives a full bucket at once, refuses the next, and gives one more each interval after', async () => {
    const { db } = database
    const bucket = { perSecond: 25, burst: 25 }
    for (let token = 0; token < 25; token++) expect(await takeToken(db, 'bucket', bucket, now)).toBe(true)
    expect(await takeToken(db, 'bucket', bucket, now)).toBe(false)
    expect(await takeToken(db, 'bucket', bucket, at(39))).toBe(false)
    expect(await takeToken(db, 'bucket', bucket, at(40))).toBe(true)
    expect(await takeToken(db, 'bucket', bucket, at(40))).toBe(false)
    // A second later the bucket is full again, and holds no more than full.
    for (let token = 0; token < 25; token++) expect(await takeToken(db, 'bucket', bucket, at(5_000))).toBe(true)
    expect(await takeToken(db, 'bucket', bucket, at(5_000))).toBe(false)
    expect(await takeToken(db, 'other', bucket, at(5_000))).toBe(true)
  })

  it('lets through a caller paced under the rate whose calls come bunched, where a count per second refuses', async () => {
    const { db } = database
    const bucket = { perSecond: 25, burst: 25 }
    // 22 a second, evenly spaced, except that four calls were held up and came together with the fifth.
    const sent = Array.from({ length: 66 }, (_, call) => Math.round((call * 1000) / 22))
    for (const call of [40, 41, 42, 43]) sent[call] = sent[44]!
    const window = (start: number) => sent.filter((ms) => ms >= start && ms < start + 1000).length
    expect(Math.max(...sent.map(window))).toBeGreaterThan(25)
    for (const ms of sent) expect(await takeToken(db, 'paced', bucket, at(ms))).toBe(true)
  })

  it('keeps a full bucket whose interval does not divide a second', async () => {
    const { db } = database
    const bucket = { perSecond: 22, burst: 22 }
    for (let token = 0; token < 22; token++) expect(await takeToken(db, 'odd', bucket, now)).toBe(true)
    expect(await takeToken(db, 'odd', bucket, now)).toBe(false)
  })

  it('commits relaxed on its own, and refuses to run inside a transaction', async () => {
    const { db } = database
    const bucket = { perSecond: 25, burst: 25 }
    await expect(db.transaction().execute((trx) => takeToken(trx, 'bucket', bucket, now))).rejects.toThrow(/outside a database transaction/)
    expect(await takeToken(db, 'bucket', bucket, now)).toBe(true)
    const [after] = (await sql<{ commit: string }>`select current_setting('synchronous_commit') as commit`.execute(db)).rows
    expect(after!.commit).toBe('on')
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import type { Database } from '../../db/database.ts'
import { createTestDatabase } from '../../testing/test-database.ts'
import { ProviderPace } from './provider-pace.ts'

let database: Database | undefined
afterEach(async () => {
  await database?.close()
  database = undefined
})

describe('the pace of provider calls', () => {
  it('spaces calls evenly at the budget a second, across paces sharing the database', async () => {
    database = await createTestDatabase()
    const one = new ProviderPace({ db: database.db, perSecond: 5 })
    const other = new ProviderPace({ db: database.db, perSecond: 5 })
    const started = Date.now()
    const finished: number[] = []
    await Promise.all(
      Array.from({ length: 8 }, (_, index) => (index % 2 ? one : other).take().then(() => finished.push(Date.now() - started))),
    )
    // One every 200 ms, whichever process asked: at most five in the first second, the eighth 1.4 s after the first.
    expect(finished).toHaveLength(8)
    expect(finished.filter((ms) => ms < 900).length).toBeLessThanOrEqual(5)
    expect(Math.max(...finished)).toBeGreaterThanOrEqual(1300)
  })

  it('halves its budget for ten seconds after the provider’s 429, then takes it back', () => {
    let now = 1_000_000
    const pace = new ProviderPace({ db: undefined as never, perSecond: 90, now: () => now })
    expect(pace.budget).toBe(90)
    pace.slowDown()
    expect(pace.budget).toBe(45)
    now += 9_999
    expect(pace.budget).toBe(45)
    now += 1
    expect(pace.budget).toBe(90)
  })
})

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
      Array.from({ length: 8 }, (_, index) => (index % 2 ? one : other).take('transfers').then(() => finished.push(Date.now() - started))),
    )
    // One every 200 ms, whichever process asked: at most five in the first second, the eighth 1.4 s after the first.
    expect(finished).toHaveLength(8)
    expect(finished.filter((ms) => ms < 900).length).toBeLessThanOrEqual(5)
    expect(Math.max(...finished)).toBeGreaterThanOrEqual(1300)
  })

  it('keeps each endpoint to its own budget, and the account to its whole budget, every endpoint together', async () => {
    database = await createTestDatabase()
    // Stripe's shape: 25 a second on an endpoint, 100 on the account (here 4 and 6).
    const pace = new ProviderPace({ db: database.db, perSecond: 6, perEndpointPerSecond: 4 })
    const started = Date.now()
    const calls: Array<{ endpoint: string; at: number }> = []
    const take = (endpoint: 'transfers' | 'refunds') => pace.take(endpoint).then(() => calls.push({ endpoint, at: Date.now() - started }))
    await Promise.all([...Array.from({ length: 6 }, () => take('transfers')), ...Array.from({ length: 3 }, () => take('refunds'))])
    const inFirstSecond = calls.filter((call) => call.at < 950)
    // Transfers alone would go at 4 a second; the account's line lets 6 through, so the refunds are not held behind them.
    expect(inFirstSecond.filter((call) => call.endpoint === 'transfers').length).toBeLessThanOrEqual(4)
    expect(inFirstSecond.length).toBeLessThanOrEqual(6)
    expect(inFirstSecond.filter((call) => call.endpoint === 'refunds').length).toBeGreaterThanOrEqual(2)
    // The sixth transfer waits for the endpoint's line: 250 ms apart, so 1.25 s after the first.
    expect(Math.max(...calls.filter((call) => call.endpoint === 'transfers').map((call) => call.at))).toBeGreaterThanOrEqual(1150)
  })

  it('halves its budgets for ten seconds after the provider’s 429, then takes them back', () => {
    let now = 1_000_000
    const pace = new ProviderPace({ db: undefined as never, perSecond: 90, perEndpointPerSecond: 22, now: () => now })
    expect([pace.budget, pace.endpointBudget]).toEqual([90, 22])
    pace.slowDown()
    expect([pace.budget, pace.endpointBudget]).toEqual([45, 11])
    now += 9_999
    expect(pace.budget).toBe(45)
    now += 1
    expect([pace.budget, pace.endpointBudget]).toEqual([90, 22])
  })
})

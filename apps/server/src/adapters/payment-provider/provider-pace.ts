import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import { reserveSlot } from '../../db/rate-limit-counts.ts'
import type { Database } from '../../db/schema.ts'

/**
 * The pace of the outbox's calls to the payment provider (issue 36): at
 * most PROVIDER_MAX_REQUESTS_PER_SECOND (default 90, under Stripe's 100
 * writes a second in live mode, leaving room for the users' own payments),
 * spaced evenly: each call reserves the next free slot in `rate_limits`, so
 * every server process shares the one line of calls, and no second of the
 * provider's sees a burst. The provider's own 429 (ProviderRateLimitedError) halves this
 * process's budget for ten seconds, and the job is tried again. Wall-clock
 * time, not the app's clock: the provider counts real seconds.
 */
export class ProviderPace {
  readonly #db: Kysely<Database>
  readonly #perSecond: number
  readonly #now: () => number
  #slowUntil = 0

  constructor(options: { db: Kysely<Database>; perSecond: number; now?: () => number }) {
    this.#db = options.db
    this.#perSecond = options.perSecond
    this.#now = options.now ?? Date.now
  }

  /** This second's budget: the whole of it, or half for ten seconds after a 429. */
  get budget(): number {
    return this.#now() < this.#slowUntil ? Math.max(1, Math.floor(this.#perSecond / 2)) : this.#perSecond
  }

  /**
   * Waits for this call's slot: one every 1/budget of a second, reserved in
   * the database so that every process's calls fall in one even line
   * rather than in bursts at each second's start.
   */
  async take(): Promise<void> {
    const slot = await reserveSlot(this.#db, providerCallsKey, 1000 / this.budget, new Date(this.#now()))
    const wait = slot.getTime() - this.#now()
    if (wait > 0) await sleep(wait)
  }

  /** The provider said 429: half the pace for the next ten seconds. */
  slowDown(): void {
    this.#slowUntil = this.#now() + 10_000
  }
}

const providerCallsKey = 'provider-calls'

import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import { reserveSlot } from '../../db/rate-limit-counts.ts'
import type { Database } from '../../db/schema.ts'

/** The provider's endpoints the outbox calls, each paced on its own line as well as on the account's. */
export type ProviderEndpoint = 'transfers' | 'refunds' | 'transfer_reversals'

/**
 * The pace of the outbox's calls to the payment provider (issue 36). Stripe
 * limits an account to 100 requests a second in live mode, and each endpoint
 * (`POST /v1/transfers`) to 25 a second unless it noted otherwise or raised
 * the account's limit (docs.stripe.com/rate-limits). So a call waits for a
 * slot on its endpoint's line (PROVIDER_MAX_ENDPOINT_REQUESTS_PER_SECOND,
 * default 22) and then on the account's (PROVIDER_MAX_REQUESTS_PER_SECOND,
 * default 90), each under Stripe's limit to leave room for the users' own
 * payments. Slots are spaced evenly and reserved in `rate_limits`, so every
 * server process shares the lines and no second of the provider's sees a
 * burst; the account's slot is reserved only once the endpoint's has come,
 * so a backlog on one endpoint does not hold the others' calls. The
 * provider's own 429 (ProviderRateLimitedError) halves this process's
 * budgets for ten seconds, and the job is tried again. Wall-clock time, not
 * the app's clock: the provider counts real seconds.
 */
export class ProviderPace {
  readonly #db: Kysely<Database>
  readonly #perSecond: number
  readonly #perEndpointPerSecond: number
  readonly #now: () => number
  #slowUntil = 0

  constructor(options: { db: Kysely<Database>; perSecond: number; perEndpointPerSecond?: number; now?: () => number }) {
    this.#db = options.db
    this.#perSecond = options.perSecond
    this.#perEndpointPerSecond = options.perEndpointPerSecond ?? options.perSecond
    this.#now = options.now ?? Date.now
  }

  /** This second's budget on the account's line: the whole of it, or half for ten seconds after a 429. */
  get budget(): number {
    return this.#slowed(this.#perSecond)
  }

  /** This second's budget on each endpoint's line, halved in the same way. */
  get endpointBudget(): number {
    return this.#slowed(this.#perEndpointPerSecond)
  }

  /** Waits for this call's slot on its endpoint's line, then on the account's. */
  async take(endpoint: ProviderEndpoint): Promise<void> {
    await this.#waitFor(`${providerCallsKey}:${endpoint}`, this.endpointBudget)
    await this.#waitFor(providerCallsKey, this.budget)
  }

  /** The provider said 429: half the pace for the next ten seconds. */
  slowDown(): void {
    this.#slowUntil = this.#now() + 10_000
  }

  #slowed(perSecond: number): number {
    return this.#now() < this.#slowUntil ? Math.max(1, Math.floor(perSecond / 2)) : perSecond
  }

  async #waitFor(key: string, perSecond: number): Promise<void> {
    const slot = await reserveSlot(this.#db, key, 1000 / perSecond, new Date(this.#now()))
    const wait = slot.getTime() - this.#now()
    if (wait > 0) await sleep(wait)
  }
}

const providerCallsKey = 'provider-calls'

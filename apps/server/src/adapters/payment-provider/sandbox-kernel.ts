import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { takeToken } from '../../db/rate-limit-counts.ts'
import { PaymentProviderError, ProviderRateLimitedError } from './provider-error.ts'

/**
 * What every part of the sandbox provider shares: its clock, its database
 * transactions, Stripe-style idempotency keys, and signed webhooks, emitted
 * and delivered. The parts (payments in sandbox-payments.ts, connected
 * accounts in sandbox-connected-accounts.ts with sandbox-documents.ts and
 * sandbox-payouts.ts, Identity in sandbox-identity.ts) stay separate
 * modules, put together in sandbox.ts.
 */
export const deliverWebhookQueue = 'sandbox-deliver-webhook'

export type SandboxDb = Transaction<Database>

/** The `rate_limits` key of the sandbox's token buckets: the account's, and each endpoint's after a colon. */
export const sandboxWritesKey = 'sandbox-provider:write-tokens'

/** The Stripe operations the sandbox counts against its per-endpoint limit. */
export type SandboxEndpoint =
  | 'POST /v1/payment_intents'
  | 'POST /v1/payment_intents/:id/cancel'
  | 'POST /v1/refunds'
  | 'POST /v1/transfers'
  | 'POST /v1/transfers/:id/reversals'

/** Sends one signed event to the webhook endpoint; resolves with the HTTP status. */
export type WebhookDeliverer = (event: Record<string, unknown>) => Promise<number>

export class SandboxKernel {
  readonly db: Kysely<Database>
  readonly jobs: JobQueue
  readonly #clock: Clock

  readonly #maxRequestsPerSecond: number
  readonly #maxEndpointRequestsPerSecond: number

  constructor(options: {
    db: Kysely<Database>
    jobs: JobQueue
    clock: Clock
    maxRequestsPerSecond?: number
    maxEndpointRequestsPerSecond?: number
  }) {
    this.db = options.db
    this.jobs = options.jobs
    this.#clock = options.clock
    this.#maxRequestsPerSecond = options.maxRequestsPerSecond ?? 100
    this.#maxEndpointRequestsPerSecond = options.maxEndpointRequestsPerSecond ?? 25
  }

  /**
   * Admits a write request as Stripe does against its rate limits
   * (docs.stripe.com/rate-limits): 100 a second in live mode for the whole
   * account, and 25 a second on each endpoint unless noted (each named
   * operation is one: `POST /v1/transfers`). Each limit is a token bucket
   * holding one second's worth (Stripe's request limiter is a token bucket,
   * by its engineering blog "Scaling your API with rate limiters"), kept in
   * `rate_limits` and shared by every server process. A request beyond
   * either is refused with rate_limit (HTTP 429 at Stripe) before anything
   * is done, so the same call may come again. Wall-clock time, as Stripe's.
   */
  async admitWrite(endpoint: SandboxEndpoint): Promise<void> {
    const now = new Date()
    const onEndpoint = { perSecond: this.#maxEndpointRequestsPerSecond, burst: this.#maxEndpointRequestsPerSecond }
    const onAccount = { perSecond: this.#maxRequestsPerSecond, burst: this.#maxRequestsPerSecond }
    if (
      !(await takeToken(this.db, `${sandboxWritesKey}:${endpoint}`, onEndpoint, now)) ||
      !(await takeToken(this.db, sandboxWritesKey, onAccount, now))
    ) {
      throw new ProviderRateLimitedError('Request rate limit exceeded. Spread your requests out (sandbox).')
    }
  }

  async createQueues(): Promise<void> {
    // A webhook endpoint that is down is retried with backoff for about an hour, like Stripe (which goes on for days).
    await this.jobs.createQueue(deliverWebhookQueue, { retryLimit: 12, retryDelay: 2, retryBackoff: true, concurrency: 5 })
  }

  /** `deliver` posts an event to the webhook endpoint. */
  async startWorkers(deliver: WebhookDeliverer): Promise<void> {
    await this.jobs.work<{ eventId: string }>(deliverWebhookQueue, (data) => this.#deliverWebhook(data.eventId, deliver))
  }

  now(): Date {
    return this.#clock.now()
  }

  transaction<T>(work: (trx: SandboxDb) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work)
  }

  /**
   * Records the event and enqueues its delivery in the same transaction as the change it announces.
   * `account`: a connected account's event, as Stripe sends it to the Connect endpoint (the event's `account`).
   */
  async emit(trx: SandboxDb, type: string, object: Record<string, unknown>, account?: string): Promise<void> {
    const now = this.now()
    const event = {
      id: newSandboxId('evt'),
      object: 'event',
      type,
      created: Math.floor(now.getTime() / 1000),
      livemode: false,
      data: { object },
      ...(account ? { account } : {}),
    }
    await trx
      .insertInto('sandbox_webhook_deliveries')
      .values({ event_id: event.id, type, payload: JSON.stringify(event), created_at: now })
      .execute()
    await this.jobs.send(deliverWebhookQueue, { eventId: event.id }, { db: trx })
  }

  /**
   * Stripe's idempotency: the first answer under a key is kept and given
   * again for the same request; another request under the same key is
   * refused. The key row is inserted first, so a concurrent duplicate waits
   * on it and then reads the stored answer. A refused request stores nothing.
   */
  async idempotent<T>(trx: SandboxDb, key: string, operation: string, request: object, run: () => Promise<T>): Promise<T> {
    if (!key) throw new PaymentProviderError('invalid_request', 'An idempotency key is required')
    const requestHash = createHash('sha256').update(operation).update('\0').update(canonicalJson(request)).digest('hex')
    const inserted = await trx
      .insertInto('sandbox_idempotency_keys')
      .values({ key, operation, request_hash: requestHash, response: null, created_at: this.now() })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .returning('key')
      .executeTakeFirst()
    if (!inserted) {
      const stored = await trx
        .selectFrom('sandbox_idempotency_keys')
        .select(['request_hash', 'response'])
        .where('key', '=', key)
        .executeTakeFirstOrThrow()
      if (stored.request_hash !== requestHash) {
        throw new PaymentProviderError('idempotency_key_reused', `Idempotency key ${key} was used for a different request`)
      }
      return stored.response as T
    }
    const response = await run()
    await trx
      .updateTable('sandbox_idempotency_keys')
      .set({ response: JSON.stringify(response ?? null) })
      .where('key', '=', key)
      .execute()
    return response
  }

  async #deliverWebhook(eventId: string, deliver: WebhookDeliverer): Promise<void> {
    const { db } = this
    const delivery = await db.selectFrom('sandbox_webhook_deliveries').selectAll().where('event_id', '=', eventId).executeTakeFirst()
    if (!delivery || delivery.delivered_at) return
    let status = 0
    try {
      status = await deliver(delivery.payload)
    } finally {
      await db
        .updateTable('sandbox_webhook_deliveries')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          last_status: status,
          delivered_at: status >= 200 && status < 300 ? this.now() : null,
        }))
        .where('event_id', '=', eventId)
        .execute()
    }
    if (status < 200 || status >= 300) throw new Error(`Webhook ${delivery.type} ${eventId} answered ${status}`)
  }
}

export function newSandboxId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`
}

/** JSON with sorted keys, so that the same request always hashes the same. */
function canonicalJson(value: unknown): string {
  if (value instanceof Uint8Array) return JSON.stringify(createHash('sha256').update(value).digest('hex'))
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** Compares a stored secret with a given one in constant time. */
export function secretMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}

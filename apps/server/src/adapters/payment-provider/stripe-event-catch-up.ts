import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type Stripe from 'stripe'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { EventHandlers } from '../../events/event-handlers.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { receiveProviderEvent } from '../../modules/payments/receive-provider-event.ts'
import { providerEventSchema } from '../../modules/payments/reduce-provider-event.ts'

export const stripeCatchUpQueue = 'stripe-event-catch-up'

/** The platform events Pactum acts on (reduce-provider-event.ts); Stripe's list takes at most 20 types. */
export const stripeEventTypes = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.processing',
  'refund.created',
  'refund.updated',
  'refund.failed',
  'transfer.created',
  // Card disputes and fraud warnings (docs/decisions/109): each event carries the whole dispute as it is now.
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
  'radar.early_fraud_warning.created',
] as const

const cursorName = 'platform'
/** Stripe retries a failed delivery for three days: a first run looks that far back. */
const firstLookBackSeconds = 3 * 86_400
/** Stripe stamps an event when it happens, and may list it a moment later: each run overlaps the last by this much. */
const overlapSeconds = 300

export interface StripeCatchUpOptions {
  stripe: Stripe
  db: Kysely<Database>
  jobs: JobQueue
  clock: Clock
  handlers: EventHandlers
  log: FastifyBaseLogger
  intervalMinutes: number
  /** The connected accounts' pass (stripe-connect-event-catch-up.ts), run by the same job after the platform's. */
  connect?: { run(): Promise<number> }
}

/**
 * Recovers a webhook Stripe never delivered (an outage of ours, a
 * misconfigured endpoint): every few minutes one process lists the events
 * made since the last run (`events.list` with `created[gte]`) and feeds
 * each through the same intake as a webhook, which records it once per
 * event id, so an event already delivered is only acknowledged. Events are
 * fed oldest first; the intake is safe out of order anyway.
 */
export class StripeEventCatchUp {
  readonly #options: StripeCatchUpOptions

  constructor(options: StripeCatchUpOptions) {
    this.#options = options
  }

  async createQueues(): Promise<void> {
    await this.#options.jobs.createQueue(stripeCatchUpQueue, { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 })
  }

  async startWorkers(): Promise<void> {
    await this.#options.jobs.work<{ slot: number }>(stripeCatchUpQueue, async (data) => {
      // The next run first: a run that fails must not end the chain.
      await this.#schedule(Math.max(data.slot + 1, this.#slotAfter(this.#options.clock.now())))
      await this.run()
      await this.#options.connect?.run()
    })
    await this.#schedule(this.#slotAfter(this.#options.clock.now()))
  }

  /** One pass; answers how many events were new to Pactum. */
  async run(): Promise<number> {
    const { stripe, db, clock } = this.#options
    const startedAt = clock.now()
    const cursor = await db.selectFrom('stripe_event_cursor').select('listed_until').where('name', '=', cursorName).executeTakeFirst()
    const since = cursor
      ? Math.floor(cursor.listed_until.getTime() / 1000) - overlapSeconds
      : Math.floor(startedAt.getTime() / 1000) - firstLookBackSeconds
    // Stripe lists newest first and pages only that way: the whole window is read, then fed oldest first.
    const events: Stripe.Event[] = []
    for await (const event of stripe.events.list({ created: { gte: since }, types: [...stripeEventTypes], limit: 100 })) events.push(event)
    events.reverse()
    let received = 0
    for (const event of events) {
      const parsed = providerEventSchema.safeParse(JSON.parse(JSON.stringify(event)))
      if (!parsed.success) {
        this.#options.log.warn({ eventId: event.id, type: event.type }, 'stripe catch-up: not a provider event')
        continue
      }
      const outcome = await receiveProviderEvent({ db, clock, handlers: this.#options.handlers }, 'stripe', parsed.data)
      if (outcome !== 'duplicate') received += 1
    }
    // Only after every event was fed: a run that failed half-way is read again from the same point.
    const listedUntil = startedAt
    await db
      .insertInto('stripe_event_cursor')
      .values({ name: cursorName, listed_until: listedUntil, updated_at: clock.now() })
      .onConflict((conflict) => conflict.column('name').doUpdateSet({ listed_until: listedUntil, updated_at: clock.now() }))
      .execute()
    if (received > 0) this.#options.log.warn({ received }, 'stripe catch-up recovered events the webhook had not delivered')
    return received
  }

  /** Runs fall on fixed slots; the slot is the singleton key, so processes starting together enqueue one run. */
  #slotAfter(now: Date): number {
    return Math.floor(now.getTime() / (this.#options.intervalMinutes * 60_000)) + 1
  }

  async #schedule(slot: number): Promise<void> {
    const startAfter = new Date(slot * this.#options.intervalMinutes * 60_000)
    await this.#options.jobs.send(stripeCatchUpQueue, { slot }, { startAfter, singletonKey: `stripe-catch-up:${slot}` })
  }
}

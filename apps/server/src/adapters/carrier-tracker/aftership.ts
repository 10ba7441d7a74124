import type { FastifyBaseLogger } from 'fastify'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { EventHandlers } from '../../events/event-handlers.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { type AftershipApi, AftershipApiError, type AftershipTracking } from './aftership-api.ts'
import { requiredFieldValues, type ShipmentDestination } from './aftership-required-fields.ts'
import { aftershipEventId, trackingNews } from './aftership-tags.ts'
import { supportedCarriers as builtInCarriers } from './carriers.ts'
import type { Carrier, CarrierTracker, RegisterShipment } from './port.ts'
import { lockRegistration, recordRegistration } from './registrations.ts'

export const registerQueue = 'aftership-tracking-register'
export const pollQueue = 'aftership-tracking-poll'

/** How long a parcel is followed at all; an undelivered one older than this is left to the parties. */
const followDays = 60
const pollBatch = 100
const carriersRefreshMs = 24 * 60 * 60 * 1000

export interface AftershipTrackerOptions {
  db: Kysely<Database>
  jobs: JobQueue
  clock: Clock
  handlers: EventHandlers
  api: AftershipApi
  log: FastifyBaseLogger
  pollMinutes: number
  /** Where the sale's parcel goes (the buyer's shipping address), for couriers that need the postal code or country. */
  destinationOf: (transactionId: string) => Promise<ShipmentDestination | undefined>
}

/** Why the API will not follow a parcel: its courier needs details Pactum does not have (AfterShip meta code 4011). */
export const missingRequiredFields = 'missing_required_fields'

export type TrackingOutcome = 'handled' | 'duplicate' | 'unchanged' | 'ignored'

/**
 * Parcels followed through an AfterShip-style tracking API. Registering
 * records the parcel in the caller's transaction and enqueues the HTTP call
 * there (an HTTP call cannot roll back: it is made after the commit, by a
 * job retried until the API accepts). News arrives by signed webhook
 * (aftership-webhook-route.ts) and, for a webhook that never came, by a
 * periodic poll of parcels not heard of for TRACKING_POLL_MINUTES; both go
 * through `receive`, which records each event once and hands it to the
 * engine in the same transaction.
 */
export class AftershipCarrierTracker implements CarrierTracker {
  readonly name = 'aftership' as const
  readonly #options: AftershipTrackerOptions
  /** The last courier list the API gave, or the built-in one until it has answered once. */
  #carriers: readonly Carrier[] = builtInCarriers
  /** Each courier's `required_fields`, from the same answer as the list. */
  #requiredFields = new Map<string, readonly string[]>()
  #refreshTimer: NodeJS.Timeout | undefined

  constructor(options: AftershipTrackerOptions) {
    this.#options = options
  }

  get supportedCarriers(): readonly Carrier[] {
    return this.#carriers
  }

  /**
   * Fetches the account's couriers; on failure the last good list stays
   * (the built-in one before the first answer), so a slow or down API
   * never empties the carrier picker.
   */
  async refreshCarriers(): Promise<void> {
    try {
      const couriers = await this.#options.api.listCouriers()
      if (couriers.length === 0) throw new Error('the courier list is empty')
      this.#carriers = couriers
        .map(({ slug, name }) => ({ slug, name }))
        .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }))
      this.#requiredFields = new Map(couriers.map((courier) => [courier.slug, courier.required_fields ?? []]))
    } catch (error) {
      this.#options.log.warn({ err: error }, 'tracking API courier list unavailable; keeping the last good list')
    }
  }

  async createQueues(): Promise<void> {
    await this.#options.jobs.createQueue(registerQueue, { retryLimit: 12, retryDelay: 30, retryBackoff: true })
    await this.#options.jobs.createQueue(pollQueue, { retryLimit: 2, retryDelay: 60 })
    await this.refreshCarriers()
    // Every process serves /supported_carriers from its own copy, so each refreshes its own.
    this.#refreshTimer = setInterval(() => void this.refreshCarriers(), carriersRefreshMs)
    this.#refreshTimer.unref()
  }

  stop(): void {
    clearInterval(this.#refreshTimer)
  }

  async startWorkers(): Promise<void> {
    await this.#options.jobs.work<{ registrationId: string }>(registerQueue, (data) => this.#sendRegistration(data.registrationId))
    await this.#options.jobs.work<{ slot: number }>(pollQueue, async (data) => {
      // The next run first: a sweep that fails must not end the chain.
      await this.#schedulePoll(Math.max(data.slot + 1, this.#slotAfter(this.#options.clock.now())))
      await this.pollStale()
    })
    await this.#schedulePoll(this.#slotAfter(this.#options.clock.now()))
  }

  async register(shipment: RegisterShipment, options: { db?: Transaction<Database> | Kysely<Database> } = {}): Promise<{ id: string }> {
    const context = {
      db: this.#options.db,
      now: this.#options.clock.now(),
      provider: 'aftership' as const,
      carriers: this.supportedCarriers,
    }
    return recordRegistration(context, shipment, options.db, async (db, registrationId) => {
      await this.#options.jobs.send(registerQueue, { registrationId }, { db, singletonKey: registrationId })
    })
  }

  /**
   * News about a parcel, from a webhook or a poll: recorded once per
   * registration, tag and checkpoint, ignored when it changes nothing (the
   * same status again, anything after delivery, or older than news
   * already had), else handed to the engine in the same transaction.
   */
  async receive(tracking: AftershipTracking): Promise<TrackingOutcome> {
    const registrations = await this.#options.db
      .selectFrom('tracking_registrations')
      .select('id')
      .where('provider', '=', 'aftership')
      .where('carrier', '=', tracking.slug)
      .where('tracking_code', '=', tracking.tracking_number)
      .execute()
    const outcomes: TrackingOutcome[] = []
    for (const { id } of registrations) outcomes.push(await this.#receiveFor(id, tracking))
    return (['handled', 'unchanged', 'duplicate'] as const).find((outcome) => outcomes.includes(outcome)) ?? 'ignored'
  }

  /** Asks the API about parcels not delivered and not heard of for TRACKING_POLL_MINUTES. */
  async pollStale(): Promise<number> {
    const now = this.#options.clock.now()
    const quietSince = new Date(now.getTime() - this.#options.pollMinutes * 60_000)
    const stale = await this.#options.db
      .selectFrom('tracking_registrations')
      .selectAll()
      .where('provider', '=', 'aftership')
      .where('status', '!=', 'delivered')
      .where('refusal', 'is', null)
      .where('created_at', '>', new Date(now.getTime() - followDays * 86_400_000))
      .where(sql<boolean>`greatest(updated_at, coalesce(polled_at, created_at)) <= ${quietSince}`)
      .orderBy(sql`coalesce(polled_at, created_at)`)
      .limit(pollBatch)
      .execute()
    for (const registration of stale) {
      try {
        await this.#options.db.updateTable('tracking_registrations').set({ polled_at: now }).where('id', '=', registration.id).execute()
        if (!registration.remote_registered_at) {
          // The registration job gave up (or is still retrying): try again now.
          await this.#sendRegistration(registration.id)
          continue
        }
        const tracking = registration.remote_id
          ? await this.#options.api.getTracking(registration.remote_id)
          : await this.#options.api.findTracking(registration.carrier, registration.tracking_code)
        if (tracking) await this.#receiveFor(registration.id, tracking)
      } catch (error) {
        // One parcel the API cannot answer for holds back none of the others.
        this.#options.log.warn({ err: error, registrationId: registration.id }, 'tracking poll failed')
      }
    }
    return stale.length
  }

  async #receiveFor(registrationId: string, tracking: AftershipTracking): Promise<TrackingOutcome> {
    return this.#options.db.transaction().execute(async (trx) => {
      const registration = await lockRegistration(trx, registrationId)
      const now = this.#options.clock.now()
      const news = trackingNews(tracking, now)
      if (!registration || !news) return 'ignored'
      const eventId = aftershipEventId(registrationId, news)
      const seen = await trx.selectFrom('carrier_events').select('event_id').where('event_id', '=', eventId).executeTakeFirst()
      if (seen) return 'duplicate'
      if (registration.status === 'delivered' || registration.status === news.type) return 'unchanged'
      const latest = await trx
        .selectFrom('carrier_events')
        .select((eb) => eb.fn.max('occurred_at').as('at'))
        .where('registration_id', '=', registrationId)
        .executeTakeFirst()
      if (latest?.at && new Date(latest.at) > news.occurredAt) return 'unchanged'
      await trx
        .insertInto('carrier_events')
        .values({ event_id: eventId, registration_id: registrationId, type: news.type, occurred_at: news.occurredAt, received_at: now })
        .execute()
      await trx
        .updateTable('tracking_registrations')
        .set({ status: news.type, updated_at: now, ...(tracking.id && !registration.remote_id ? { remote_id: tracking.id } : {}) })
        .where('id', '=', registrationId)
        .execute()
      if (this.#options.handlers.hasCarrierHandler) {
        await this.#options.handlers.handleCarrierEvent(
          {
            type: news.type,
            eventId,
            occurredAt: news.occurredAt,
            transactionId: registration.transaction_id,
            carrier: registration.carrier,
            trackingCode: registration.tracking_code,
          },
          { db: trx },
        )
      }
      await trx.updateTable('carrier_events').set({ processed_at: now }).where('event_id', '=', eventId).execute()
      return 'handled'
    })
  }

  /**
   * The HTTP registration, after the commit, with the additional fields the
   * courier requires (aftership-required-fields.ts). A 4003 ("already
   * exists") is success: a retry after a lost answer, or the same parcel
   * registered before. A courier that needs a detail Pactum does not have
   * (known before asking, or answered 4011) is a refusal, recorded and not
   * retried: the same request cannot succeed. Any other failure throws, and
   * the job is retried.
   */
  async #sendRegistration(registrationId: string): Promise<void> {
    const { db, api, clock } = this.#options
    const registration = await db.selectFrom('tracking_registrations').selectAll().where('id', '=', registrationId).executeTakeFirst()
    if (!registration || registration.remote_registered_at || registration.refusal) return
    const required = this.#requiredFields.get(registration.carrier) ?? []
    // The buyer's address is read only for a courier that asks for part of it.
    const needsDestination = required.some((name) => name.startsWith('destination_'))
    const destination = needsDestination ? await this.#options.destinationOf(registration.transaction_id) : undefined
    const { fields, missing } = requiredFieldValues(required, { destination, shippedAt: new Date(registration.created_at) })
    if (missing.length > 0) return this.#refuse(registrationId, missing)
    let remoteId: string | null = null
    try {
      const created = await api.createTracking({
        slug: registration.carrier,
        trackingNumber: registration.tracking_code,
        transactionId: registration.transaction_id,
        additionalFields: fields,
      })
      remoteId = created.id ?? null
    } catch (error) {
      // The courier's list was stale, or a value was refused: what it asks for is the best Pactum can name.
      if (error instanceof AftershipApiError && error.missingRequiredField) return this.#refuse(registrationId, required)
      if (!(error instanceof AftershipApiError && error.alreadyExists)) throw error
      remoteId = (await api.findTracking(registration.carrier, registration.tracking_code).catch(() => undefined))?.id ?? null
    }
    const now = clock.now()
    await db
      .updateTable('tracking_registrations')
      .set({ remote_id: remoteId, remote_registered_at: now })
      .where('id', '=', registrationId)
      .where('remote_registered_at', 'is', null)
      .execute()
  }

  async #refuse(registrationId: string, fields: readonly string[]): Promise<void> {
    this.#options.log.warn(
      { registrationId, fields },
      'the tracking API needs courier details Pactum does not have; the parcel is not followed',
    )
    await this.#options.db
      .updateTable('tracking_registrations')
      .set({ refusal: missingRequiredFields, refusal_fields: [...fields], updated_at: this.#options.clock.now() })
      .where('id', '=', registrationId)
      .where('remote_registered_at', 'is', null)
      .execute()
  }

  /** Poll runs fall on fixed slots of TRACKING_POLL_MINUTES; the slot is the singleton key, so processes starting together enqueue one run. */
  #slotAfter(now: Date): number {
    return Math.floor(now.getTime() / (this.#options.pollMinutes * 60_000)) + 1
  }

  async #schedulePoll(slot: number): Promise<void> {
    const startAfter = new Date(slot * this.#options.pollMinutes * 60_000)
    await this.#options.jobs.send(pollQueue, { slot }, { startAfter, singletonKey: `poll:${slot}` })
  }
}

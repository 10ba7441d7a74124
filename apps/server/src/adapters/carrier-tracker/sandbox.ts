import type { Kysely, Transaction } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { EventHandlers } from '../../events/event-handlers.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { supportedCarriers } from './carriers.ts'
import type { CarrierEventType, CarrierTracker, RegisterShipment } from './port.ts'
import { lockRegistration, recordRegistration } from './registrations.ts'

export const trackingQueue = 'sandbox-tracking-update'

export interface SandboxTrackerOptions {
  db: Kysely<Database>
  jobs: JobQueue
  clock: Clock
  handlers: EventHandlers
  inTransitSeconds: number
  deliveredSeconds: number
}

/**
 * A simulated tracking service: a registered parcel is reported in transit
 * after SANDBOX_TRACKING_IN_TRANSIT_SECONDS and delivered after
 * SANDBOX_TRACKING_DELIVERED_SECONDS, by jobs scheduled with the
 * registration. A tracking code containing LOST never arrives; one
 * containing FAIL gets an exception instead of moving.
 */
export class SandboxCarrierTracker implements CarrierTracker {
  readonly name = 'sandbox' as const
  readonly supportedCarriers = supportedCarriers
  readonly #options: SandboxTrackerOptions

  constructor(options: SandboxTrackerOptions) {
    this.#options = options
  }

  async createQueues(): Promise<void> {
    await this.#options.jobs.createQueue(trackingQueue, { retryLimit: 10, retryDelay: 5, retryBackoff: true })
  }

  async startWorkers(): Promise<void> {
    await this.#options.jobs.work<{ registrationId: string; type: CarrierEventType }>(trackingQueue, (data) =>
      this.#report(data.registrationId, data.type),
    )
  }

  async register(shipment: RegisterShipment, options: { db?: Transaction<Database> | Kysely<Database> } = {}): Promise<{ id: string }> {
    const context = { db: this.#options.db, now: this.#options.clock.now(), provider: 'sandbox' as const, carriers: this.supportedCarriers }
    return recordRegistration(context, shipment, options.db, async (db, registrationId) => {
      const code = shipment.trackingCode.toUpperCase()
      const schedule = (type: CarrierEventType, seconds: number) =>
        this.#options.jobs.send(trackingQueue, { registrationId, type }, { db, startAfter: seconds })
      if (code.includes('FAIL')) {
        await schedule('exception', this.#options.inTransitSeconds)
      } else {
        await schedule('in_transit', this.#options.inTransitSeconds)
        if (!code.includes('LOST')) await schedule('delivered', this.#options.deliveredSeconds)
      }
    })
  }

  /**
   * Records the carrier event once (its id is the registration and the
   * status) and hands it to the registered handler in the same
   * transaction; a handler that throws leaves the job to be retried.
   */
  async #report(registrationId: string, type: CarrierEventType): Promise<void> {
    await this.#options.db.transaction().execute(async (trx) => {
      const registration = await lockRegistration(trx, registrationId)
      if (!registration || registration.status === 'delivered') return
      const now = this.#options.clock.now()
      const eventId = `sandbox:${registrationId}:${type}`
      const inserted = await trx
        .insertInto('carrier_events')
        .values({ event_id: eventId, registration_id: registrationId, type, occurred_at: now, received_at: now })
        .onConflict((conflict) => conflict.column('event_id').doNothing())
        .returning('event_id')
        .executeTakeFirst()
      if (!inserted) return
      await trx.updateTable('tracking_registrations').set({ status: type, updated_at: now }).where('id', '=', registrationId).execute()
      if (!this.#options.handlers.hasCarrierHandler) return
      await this.#options.handlers.handleCarrierEvent(
        {
          type,
          eventId,
          occurredAt: now,
          transactionId: registration.transaction_id,
          carrier: registration.carrier,
          trackingCode: registration.tracking_code,
        },
        { db: trx },
      )
      await trx.updateTable('carrier_events').set({ processed_at: now }).where('event_id', '=', eventId).execute()
    })
  }
}

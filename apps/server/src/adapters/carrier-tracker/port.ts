import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * Parcel tracking: a shipment is registered once (when the seller adds the
 * tracking code) and the tracker reports its progress as carrier events,
 * handed to the handler registered with
 * `EventHandlers.registerCarrierEventHandler`. The sandbox tracker
 * (`sandbox.ts`) simulates carriers from the tracking code; the
 * AfterShip-style adapter (`aftership.ts`, selected by TRACKING_API_KEY)
 * follows real parcels. Both pass carrier-tracker.contract.test.ts.
 */
export interface Carrier {
  slug: string
  name: string
}

export type CarrierEventType = 'in_transit' | 'delivered' | 'exception'

export interface CarrierEvent {
  type: CarrierEventType
  /** Unique per tracker: a repeated event is handled once. */
  eventId: string
  occurredAt: Date
  transactionId: string
  carrier: string
  trackingCode: string
}

export interface RegisterShipment {
  carrier: string
  trackingCode: string
  transactionId: string
}

export interface CarrierTracker {
  readonly name: 'sandbox' | 'aftership'
  readonly supportedCarriers: readonly Carrier[]
  /**
   * Pass the transaction that records the tracking code as `db`: the
   * registration (and the sandbox's scheduled events) then exist only if it commits.
   * Throws `UnsupportedCarrierError` for a slug not in `supportedCarriers`.
   */
  register(shipment: RegisterShipment, options?: { db?: Transaction<Database> | Kysely<Database> }): Promise<{ id: string }>
}

export class UnsupportedCarrierError extends Error {
  readonly carrier: string
  constructor(carrier: string) {
    super(`Unsupported carrier: ${carrier}`)
    this.name = 'UnsupportedCarrierError'
    this.carrier = carrier
  }
}

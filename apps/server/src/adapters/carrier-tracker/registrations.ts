import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { type Carrier, type RegisterShipment, UnsupportedCarrierError } from './port.ts'

export interface RegistrationContext {
  /** The tracker's own database, for a registration made outside the caller's transaction. */
  readonly db: Kysely<Database>
  readonly now: Date
  readonly provider: 'sandbox' | 'aftership'
  readonly carriers: readonly Carrier[]
}

/**
 * What both trackers do to start following a parcel: refuse a carrier they
 * cannot track, record the registration, and let the tracker queue its own
 * work (`then`), in the caller's database transaction when it gives one, so
 * that a rolled-back tracking step registers nothing.
 */
export async function recordRegistration(
  context: RegistrationContext,
  shipment: RegisterShipment,
  given: Transaction<Database> | Kysely<Database> | undefined,
  then: (db: Transaction<Database>, registrationId: string) => Promise<void>,
): Promise<{ id: string }> {
  if (!context.carriers.some((carrier) => carrier.slug === shipment.carrier)) throw new UnsupportedCarrierError(shipment.carrier)
  const run = async (db: Transaction<Database>) => {
    const registration = await db
      .insertInto('tracking_registrations')
      .values({
        provider: context.provider,
        carrier: shipment.carrier,
        tracking_code: shipment.trackingCode,
        transaction_id: shipment.transactionId,
        status: 'registered',
        created_at: context.now,
        updated_at: context.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await then(db, registration.id)
    return { id: registration.id }
  }
  if (given && given.isTransaction) return run(given as Transaction<Database>)
  return (given ?? context.db).transaction().execute(run)
}

/** A parcel's registration, locked for the carrier news being recorded against it; undefined when there is none. */
export async function lockRegistration(trx: Transaction<Database>, registrationId: string) {
  return trx.selectFrom('tracking_registrations').selectAll().where('id', '=', registrationId).forUpdate().executeTakeFirst()
}

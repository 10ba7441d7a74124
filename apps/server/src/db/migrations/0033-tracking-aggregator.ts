import type { Kysely } from 'kysely'

/**
 * Parcels tracked by an AfterShip-style aggregator (issue 14 #3): the
 * registration is sent after the commit that recorded it, so the row says
 * when the aggregator accepted it and under which id, and when it was last
 * polled (the fallback for a missed webhook).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tracking_registrations')
    .addColumn('remote_id', 'text')
    .addColumn('remote_registered_at', 'timestamptz')
    .addColumn('polled_at', 'timestamptz')
    .execute()
  await db.schema
    .createIndex('tracking_registrations_parcel_idx')
    .on('tracking_registrations')
    .columns(['provider', 'carrier', 'tracking_code'])
    .execute()
}

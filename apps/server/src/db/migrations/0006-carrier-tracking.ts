import { type Kysely, sql } from 'kysely'

/**
 * Shipments registered with the carrier tracker, and the carrier events
 * received for them (one row per event id, so that a repeated event is
 * handled once). The sandbox tracker drives its registrations by jobs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tracking_registrations')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('carrier', 'text', (col) => col.notNull())
    .addColumn('tracking_code', 'text', (col) => col.notNull())
    .addColumn('transaction_id', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('tracking_registrations_transaction_idx').on('tracking_registrations').column('transaction_id').execute()
  await db.schema
    .createTable('carrier_events')
    .addColumn('event_id', 'text', (col) => col.primaryKey())
    .addColumn('registration_id', 'uuid', (col) => col.notNull().references('tracking_registrations.id'))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('occurred_at', 'timestamptz', (col) => col.notNull())
    .addColumn('received_at', 'timestamptz', (col) => col.notNull())
    .addColumn('processed_at', 'timestamptz')
    .execute()
}

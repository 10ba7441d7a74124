import { type Kysely, sql } from 'kysely'

/**
 * Provider webhooks as received: one row per provider event id, so that a
 * redelivered event is acknowledged without being handled twice. `created`
 * is the provider's own time of the event (events may arrive out of order);
 * `processed_at` stays empty while no handler has taken the event.
 *
 * pg-boss keeps its jobs in its own schema (`pgboss`), which it installs and
 * upgrades itself when the job queue starts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('provider_events')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('event_id', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('created', 'timestamptz', (col) => col.notNull())
    .addColumn('payload', 'jsonb', (col) => col.notNull())
    .addColumn('domain_event', 'jsonb')
    .addColumn('received_at', 'timestamptz', (col) => col.notNull())
    .addColumn('processed_at', 'timestamptz')
    .addUniqueConstraint('provider_events_provider_event_id_key', ['provider', 'event_id'])
    .execute()
  await db.schema
    .createIndex('provider_events_unprocessed_idx')
    .on('provider_events')
    .column('received_at')
    .where(sql.ref('processed_at'), 'is', null)
    .execute()
}

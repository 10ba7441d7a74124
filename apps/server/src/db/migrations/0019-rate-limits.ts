import type { Kysely } from 'kysely'

/**
 * Rate-limit counters (join codes, uploads, the contact form, e-mail links)
 * kept in the database, so that several server processes count together.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('count', 'integer', (col) => col.notNull())
    .addColumn('window_ends_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('rate_limits_window_idx').on('rate_limits').column('window_ends_at').execute()
}

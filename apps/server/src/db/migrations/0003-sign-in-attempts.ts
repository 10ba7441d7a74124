import { type Kysely, sql } from 'kysely'

/**
 * Sign-in attempts of the embedded provider, for the per-account throttle.
 * In the database rather than in memory because several server processes
 * share one database and must share one count. Keyed by the account id that
 * the e-mail would have (a hash), so that unknown addresses are throttled the
 * same way and typed-in addresses are not stored in clear.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_attempts')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_key', 'text', (col) => col.notNull())
    .addColumn('attempted_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema
    .createIndex('sign_in_attempts_account_key_attempted_at_idx')
    .on('sign_in_attempts')
    .columns(['account_key', 'attempted_at'])
    .execute()
  await db.schema.createIndex('sign_in_attempts_attempted_at_idx').on('sign_in_attempts').column('attempted_at').execute()
}

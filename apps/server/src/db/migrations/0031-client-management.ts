import { type Kysely, sql } from 'kysely'

/**
 * Partner clients managed from the admin console (issue 12 #3, #5). The
 * clients file seeds a client and replaces it again only when its own entry
 * changes, so `seeded_settings` keeps the entry last applied; an admin's edit
 * leaves it alone and therefore outlives restarts. `client_changes` is the
 * audit trail of every change, whoever made it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('seeded_settings', 'text').addColumn('api_key_issued_at', 'timestamptz').execute()
  await db.schema
    .createTable('client_changes')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
    .addColumn('action', 'text', (col) =>
      col.notNull().check(sql`action in ('created', 'updated', 'seeded_from_file', 'api_key_issued', 'api_key_revoked')`),
    )
    .addColumn('actor_kind', 'text', (col) => col.notNull().check(sql`actor_kind in ('admin', 'operator', 'configuration')`))
    .addColumn('actor_user_id', 'uuid', (col) => col.references('users.id'))
    .addColumn('settings', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute()
}

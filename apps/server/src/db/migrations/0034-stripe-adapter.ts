import { type Kysely, sql } from 'kysely'

/**
 * The Stripe adapter's own state (issue 14 #1). Stripe has no search for
 * connected accounts, so which account is a user's is kept here (the
 * account's metadata carries the user id as well, for a human looking in
 * the Dashboard). The catch-up job's cursor says up to when Stripe's event
 * list has been read, so a delivery Stripe never made is still recovered.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stripe_connected_accounts')
    .addColumn('user_id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().unique())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('country', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createTable('stripe_event_cursor')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('listed_until', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute()
}

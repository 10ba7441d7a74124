import type { Kysely } from 'kysely'

/**
 * The buyer's address as collected at checkout (spec §7 shipping_details /
 * billing_details): one per transaction, set by the buyer before paying and
 * read by both parties (the seller ships to it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shipping_details')
    .addColumn('transaction_id', 'uuid', (col) => col.primaryKey().references('transactions.id'))
    .addColumn('buyer_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('line1', 'text', (col) => col.notNull())
    .addColumn('line2', 'text')
    .addColumn('city', 'text', (col) => col.notNull())
    .addColumn('postal_code', 'text', (col) => col.notNull())
    .addColumn('country_code', 'text', (col) => col.notNull())
    .addColumn('state', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute()
}

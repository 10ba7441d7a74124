import { type Kysely, sql } from 'kysely'

/**
 * Sellers' listings (issue 12 #1): reusable offers a buyer opens by link.
 * A transaction bought from one records it, so that a single-use listing
 * can tell whether a purchase is already waiting for its seller.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('listings')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('seller_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('listing_type', 'text', (col) => col.notNull().check(sql`listing_type in ('single_use', 'multi_use')`))
    .addColumn('type', 'text', (col) => col.notNull().check(sql`type in ('online', 'f2f')`))
    .addColumn('price', 'bigint', (col) => col.notNull().check(sql`price > 0`))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('open')
        .check(sql`status in ('open', 'closed')`),
    )
    .addColumn('client_id', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('listings_seller_idx').on('listings').columns(['seller_id', 'created_at']).execute()
  await db.schema
    .alterTable('transactions')
    .addColumn('listing_id', 'uuid', (col) => col.references('listings.id'))
    .execute()
  await db.schema.createIndex('transactions_listing_idx').on('transactions').columns(['listing_id', 'status']).execute()
}

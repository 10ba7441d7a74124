import type { Kysely } from 'kysely'

/**
 * The checkout offers the address a buyer gave last (GET
 * /me/last_shipping_details): their newest shipping_details row, found by
 * this index instead of a scan of every sale's address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('shipping_details_buyer_recent_idx').on('shipping_details').columns(['buyer_id', 'updated_at']).execute()
}

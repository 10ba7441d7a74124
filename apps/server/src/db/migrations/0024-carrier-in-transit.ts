import type { Kysely } from 'kysely'

/**
 * When the carrier first reported an online sale's parcel on its way (issue
 * 11 #8). Not a state: the transaction stays `tracked`, but its history
 * shows the step between "tracking added" and "delivered".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('in_transit', 'timestamptz').execute()
}

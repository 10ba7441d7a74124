import type { ShippingDetails } from '@pactum/contracts/transactions'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * What an online sale ships by: the address the buyer gives
 * (`shipping_details`, one row a transaction) and the parcel the seller
 * tracks (the transaction's `tracking_carrier` and `tracking_code`).
 */

const addressColumns = ['name', 'line1', 'line2', 'city', 'postal_code', 'country_code', 'state'] as const

/** The transaction's address, given or corrected (the row made on first need). */
export async function upsertShippingDetails(
  trx: Kysely<Database>,
  given: { transactionId: string; buyerId: string; address: ShippingDetails; now: Date },
): Promise<void> {
  const { address, now } = given
  await trx
    .insertInto('shipping_details')
    .values({ transaction_id: given.transactionId, buyer_id: given.buyerId, ...address, created_at: now, updated_at: now })
    .onConflict((conflict) => conflict.column('transaction_id').doUpdateSet({ ...address, updated_at: now }))
    .execute()
}

export async function findShippingDetails(db: Kysely<Database>, transactionId: string): Promise<ShippingDetails | undefined> {
  return db.selectFrom('shipping_details').select(addressColumns).where('transaction_id', '=', transactionId).executeTakeFirst()
}

/** The address this buyer gave or corrected most recently, whatever became of that sale. */
export async function findLastShippingDetailsOf(db: Kysely<Database>, buyerId: string): Promise<ShippingDetails | undefined> {
  return (
    db
      .selectFrom('shipping_details')
      .select(addressColumns)
      .where('buyer_id', '=', buyerId)
      .orderBy('updated_at', 'desc')
      // Ids are UUIDv7: the later sale wins a tie.
      .orderBy('transaction_id', 'desc')
      .limit(1)
      .executeTakeFirst()
  )
}

/**
 * Holds the parcel (carrier and upper-cased code) for the rest of the
 * database transaction, by an advisory lock: a second seller adding the
 * same parcel waits here for the first one's commit.
 */
export async function lockParcel(trx: Kysely<Database>, carrier: string, code: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`parcel:${carrier}:${code}`}))`.execute(trx)
}

/** Another transaction tracking this parcel (carrier, upper-cased code) whose buyer is not `buyerId`; undefined when none. */
export async function findParcelOfAnotherBuyer(
  trx: Kysely<Database>,
  parcel: { carrier: string; code: string; transactionId: string; buyerId: string | null },
): Promise<{ id: string } | undefined> {
  return trx
    .selectFrom('transactions')
    .select('id')
    .where('tracking_carrier', '=', parcel.carrier)
    .where(sql<string>`upper(tracking_code)`, '=', parcel.code)
    .where('tracking_code', 'is not', null)
    .where('id', '!=', parcel.transactionId)
    .where(sql<boolean>`buyer_id is distinct from ${parcel.buyerId}`)
    .limit(1)
    .executeTakeFirst()
}

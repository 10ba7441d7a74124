import { type Kysely, sql } from 'kysely'

/**
 * Adding tracking details looks for the same parcel on another sale (one
 * parcel cannot reach two buyers): an index on the carrier and the code as
 * compared, upper-cased, so the look-up stays an index probe however many
 * sales there are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index transactions_tracking_parcel_idx on transactions (tracking_carrier, upper(tracking_code)) where tracking_code is not null`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index transactions_tracking_parcel_idx`.execute(db)
}

import { type Kysely, sql } from 'kysely'

/**
 * A join clears the code (it works once), so a replayed join (its answer lost
 * on the way) used to find nothing. The code a transaction was joined with is
 * kept apart, for its joiner only: their replay answers as the join did.
 * Looked up only when no live code matches, through a partial index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transactions add column joined_with_code text`.execute(db)
  await sql`create index transactions_joined_with_code_idx on transactions (joined_with_code) where joined_with_code is not null`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index transactions_joined_with_code_idx`.execute(db)
  await sql`alter table transactions drop column joined_with_code`.execute(db)
}

import { type Kysely, sql } from 'kysely'

/**
 * US sellers' tax identifiers (issue 11 #11): the payout requirements ask
 * for the last four digits of the Social Security number, and the full
 * number when the provider could not match those. The digits go to the
 * payment provider only; Pactum keeps when the last four were given.
 *
 * The sandbox provider keeps, per connected account, where each check
 * stands and what it will find (decided from the test values on receipt,
 * applied when the asynchronous check runs); never the digits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('ssn_last_4_provided_at', 'timestamptz').execute()

  await db.schema
    .alterTable('sandbox_accounts')
    .addColumn('ssn_last_4_status', 'text', (col) => col.notNull().defaultTo('not_provided'))
    .addColumn('ssn_last_4_outcome', 'text')
    .addColumn('id_number_status', 'text', (col) => col.notNull().defaultTo('not_provided'))
    .addColumn('id_number_outcome', 'text')
    .execute()
  await sql`alter table sandbox_accounts add constraint sandbox_accounts_ssn_last_4_status_check check (ssn_last_4_status in ('not_provided', 'pending', 'verified', 'unmatched'))`.execute(
    db,
  )
  await sql`alter table sandbox_accounts add constraint sandbox_accounts_ssn_last_4_outcome_check check (ssn_last_4_outcome in ('verified', 'unmatched'))`.execute(
    db,
  )
  await sql`alter table sandbox_accounts add constraint sandbox_accounts_id_number_status_check check (id_number_status in ('not_provided', 'pending', 'verified', 'rejected'))`.execute(
    db,
  )
  await sql`alter table sandbox_accounts add constraint sandbox_accounts_id_number_outcome_check check (id_number_outcome in ('verified', 'rejected'))`.execute(
    db,
  )
}

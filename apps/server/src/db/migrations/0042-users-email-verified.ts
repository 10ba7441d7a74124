import { type Kysely, sql } from 'kysely'

/**
 * When a user row's address was first proved (a token with
 * `email_verified: true`, or the operator's command-line token). From then
 * on a token that does not prove the address, issued after that moment,
 * speaks for someone else who typed the same address (issue 30: the
 * embedded sign-in derives account ids from addresses) and is refused.
 *
 * Rows of embedded accounts that confirmed their address already count as
 * proved since that confirmation.
 *
 * `closed_at`: when the person closed their account (close-account.ts); the
 * row stays, pseudonymised, for the ledger and the other parties' records.
 *
 * `email_verification_tokens.purpose`: a link confirms the account's address
 * (`confirm`) or a new address the person asked to change to (`change`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column email_verified_at timestamptz`.execute(db)
  await sql`alter table users add column closed_at timestamptz`.execute(db)
  await sql`alter table email_verification_tokens add column purpose text not null default 'confirm'`.execute(db)
  await sql`
    update users set email_verified_at = accounts.email_verified_at
    from accounts
    where accounts.id = users.subject and accounts.email_verified_at is not null
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column email_verified_at`.execute(db)
  await sql`alter table users drop column closed_at`.execute(db)
  await sql`alter table email_verification_tokens drop column purpose`.execute(db)
}

import { type Kysely, sql } from 'kysely'

/**
 * Second factors of the embedded sign-in (issue 30): an authenticator app's
 * TOTP secret per account, and the sign-in step between a right password and
 * the second factor. The secret is kept as the app needs it (RFC 6238 needs
 * the secret itself, not a hash of it); docs/decisions/038-second-factors-and-admin-require-mfa.md says why it is not
 * sealed under a key kept in the same database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table totp_factors (
      account_id text primary key references accounts(id) on delete cascade,
      secret text not null,
      confirmed_at timestamptz,
      last_used_step bigint,
      created_at timestamptz not null
    )
  `.execute(db)
  await sql`
    create table second_factor_steps (
      interaction_uid text primary key,
      account_id text not null references accounts(id) on delete cascade,
      failures integer not null default 0,
      expires_at timestamptz not null
    )
  `.execute(db)
  await sql`create index second_factor_steps_account_idx on second_factor_steps (account_id)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table second_factor_steps`.execute(db)
  await sql`drop table totp_factors`.execute(db)
}

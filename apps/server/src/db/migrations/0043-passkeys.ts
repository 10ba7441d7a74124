import { type Kysely, sql } from 'kysely'

/**
 * Passkeys of the embedded sign-in (issue 30): WebAuthn credentials an
 * account registered from its Account page, to sign in without the
 * password. Only public keys are kept. The challenges each ceremony signs
 * live here too, so that any server process can finish a ceremony another
 * one began; each is used once and for five minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table passkeys (
      id text primary key,
      account_id text not null references accounts(id) on delete cascade,
      public_key text not null,
      counter bigint not null default 0,
      transports text not null default '[]',
      device_type text not null,
      backed_up boolean not null default false,
      name text not null,
      created_at timestamptz not null,
      last_used_at timestamptz
    )
  `.execute(db)
  await sql`create index passkeys_account_idx on passkeys (account_id)`.execute(db)
  await sql`
    create table webauthn_challenges (
      id text primary key,
      purpose text not null,
      account_id text references accounts(id) on delete cascade,
      interaction_uid text,
      challenge text not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )
  `.execute(db)
  await sql`create index webauthn_challenges_account_idx on webauthn_challenges (account_id)`.execute(db)
  await sql`create index webauthn_challenges_interaction_idx on webauthn_challenges (interaction_uid)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table webauthn_challenges`.execute(db)
  await sql`drop table passkeys`.execute(db)
}

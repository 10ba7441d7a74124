import { type Kysely, sql } from 'kysely'

/**
 * The payout requirements forward the seller's profile again when the
 * provider still asks for what Pactum has. Once per profile: the profile
 * the provider last answered here (took or refused) is kept, so that reading
 * the requirements of a refused profile is not a provider call each time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table account_profile_repairs (
      account_id text primary key,
      profile_fingerprint text not null,
      answered_at timestamptz not null
    )
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table account_profile_repairs`.execute(db)
}

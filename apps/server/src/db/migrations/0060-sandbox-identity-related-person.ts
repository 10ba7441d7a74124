import { type Kysely, sql } from 'kysely'

/**
 * Issue 34 (docs/decisions/111-identity-sessions-for-the-sellers-person.md).
 *
 * `sandbox_verification_sessions.related_account_id` and
 * `related_person_id`: the connected account, and its Person, an Identity
 * session of the sandbox provider was made for (Stripe's `related_person`).
 * Once verified, the session verifies that account's identity document, as
 * Stripe attaches what it collected to the Person. Both or neither; older
 * sessions have neither.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sandbox_verification_sessions add column related_account_id text references sandbox_accounts(id)`.execute(db)
  await sql`alter table sandbox_verification_sessions add column related_person_id text`.execute(db)
  await sql`
    alter table sandbox_verification_sessions add constraint sandbox_verification_sessions_related_person_check
      check ((related_account_id is null) = (related_person_id is null))
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sandbox_verification_sessions drop constraint sandbox_verification_sessions_related_person_check`.execute(db)
  await sql`alter table sandbox_verification_sessions drop column related_person_id`.execute(db)
  await sql`alter table sandbox_verification_sessions drop column related_account_id`.execute(db)
}

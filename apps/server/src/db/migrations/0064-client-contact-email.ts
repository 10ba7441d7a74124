import { type Kysely, sql } from 'kysely'

/**
 * Issue 35 (docs/decisions/117-partner-contact-address.md): where Pactum
 * writes to a partner about its integration, such as a webhook endpoint
 * disabled after three days of failures. Set in the admin console or the
 * clients file; null: such news goes to Pactum's support address alone.
 * Never shown by the public `GET /clients/{client_id}`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table clients add column contact_email text`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table clients drop column contact_email`.execute(db)
}

import { type Kysely, sql } from 'kysely'

/**
 * Guest invitations expire and can be re-sent (issue 12 leftovers): the
 * link's age counts from its last sending, not from the invitation's
 * creation, and the number of sendings is kept to cap re-sends. Existing
 * invitations count as sent once, when they were created.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('guest_invitations')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('send_count', 'integer', (col) => col.notNull().defaultTo(1))
    .execute()
  await sql`update guest_invitations set sent_at = created_at`.execute(db)
  await db.schema
    .alterTable('guest_invitations')
    .alterColumn('sent_at', (col) => col.setNotNull())
    .execute()
}

import type { Kysely } from 'kysely'

/**
 * The seller may ask the buyer to confirm receipt (issue 32 item 5). The
 * request e-mails the buyer, so the machine keeps when it last did: one a
 * day at most.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('receipt_confirmation_requested_at', 'timestamptz').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').dropColumn('receipt_confirmation_requested_at').execute()
}

import { type Kysely, sql } from 'kysely'

/**
 * A complaint opens a case (issue 32): its reason, the seller's response
 * window, when it went to an admin, and the settlement offers, all state of
 * the machine and written by the one writer. A settled or decided split is
 * one `split` ledger entry that resolves the hold, so the database's own
 * guard against a second resolution counts it too. Cases opened before this
 * migration get the default reason and a response window that starts now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('transactions')
    .addColumn('complaint_reason', 'text')
    .addColumn('case_response_deadline', 'timestamptz')
    .addColumn('case_escalated_at', 'timestamptz')
    .addColumn('settlement_offers', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute()
  await sql`update transactions set complaint_reason = 'other', case_response_deadline = now() + interval '3 days'
    where complaint_description is not null`.execute(db)
  await db.schema.dropIndex('ledger_entries_one_resolution').execute()
  await db.schema
    .createIndex('ledger_entries_one_resolution')
    .unique()
    .on('ledger_entries')
    .column('transaction_id')
    .where(sql.ref('kind'), 'in', sql`('release', 'refund', 'split')`)
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('ledger_entries_one_resolution').execute()
  await db.schema
    .createIndex('ledger_entries_one_resolution')
    .unique()
    .on('ledger_entries')
    .column('transaction_id')
    .where(sql.ref('kind'), 'in', sql`('release', 'refund')`)
    .execute()
  await db.schema
    .alterTable('transactions')
    .dropColumn('complaint_reason')
    .dropColumn('case_response_deadline')
    .dropColumn('case_escalated_at')
    .dropColumn('settlement_offers')
    .execute()
}

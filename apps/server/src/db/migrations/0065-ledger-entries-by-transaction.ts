import type { Kysely } from 'kysely'

/**
 * A sale's ledger entries by its id (issue 36). The two indexes on
 * `transaction_id` were partial (one hold per part, one resolution), so
 * `where transaction_id = $1` alone, as the receipt and the admin console's
 * transaction ask it, read the whole table: 5 ms a receipt with 40,000
 * entries, 20,000 releases' receipts a third of PostgreSQL's time, and more
 * with every sale. A plain CREATE INDEX (the migrations run in one database
 * transaction, where CONCURRENTLY cannot): it holds writes to the ledger
 * while it builds, seconds for millions of entries (docs/deployment.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('ledger_entries_transaction_idx').on('ledger_entries').column('transaction_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('ledger_entries_transaction_idx').execute()
}

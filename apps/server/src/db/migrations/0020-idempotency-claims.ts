import { type Kysely, sql } from 'kysely'

/**
 * Idempotency-Key claims that survive a crash: a claim is held until
 * `locked_until` (a retry after that may take it over, as `attempt` + 1),
 * and the transaction its work changed is written by that work's own
 * database transaction (`transaction_id`), so a retry knows whether the
 * work committed even when the answer was never stored. Keys live 24 h.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('idempotency_keys')
    .addColumn('attempt', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('transaction_id', 'uuid')
    .execute()
  // Claims written before this migration are either answered or were lost with their process.
  await sql`update idempotency_keys set locked_until = created_at where status_code is null`.execute(db)
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute()
}

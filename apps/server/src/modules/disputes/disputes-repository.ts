import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'

/** The admins' queue: cases that went to an admin and are still open, oldest first (issue 32). */
export async function listEscalatedCases(db: Kysely<Database>, limit: number): Promise<TransactionRow[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('status', '=', 'complained')
    .where('case_escalated_at', 'is not', null)
    .orderBy('case_escalated_at', 'asc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute()
}

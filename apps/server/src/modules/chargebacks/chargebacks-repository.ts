import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'

/** The admin console's list of card disputes: the transactions that carry one (docs/decisions/109). */
export async function listChargebacks(db: Kysely<Database>, state: 'open' | 'closed' | 'all'): Promise<TransactionRow[]> {
  let query = db.selectFrom('transactions').selectAll().where('chargeback', 'is not', null)
  if (state === 'open') query = query.where(sql<boolean>`chargeback->>'closed_at' is null`)
  if (state === 'closed') query = query.where(sql<boolean>`chargeback->>'closed_at' is not null`)
  // The most urgent first: the earliest evidence deadline, then the newest.
  return query
    .orderBy(sql`chargeback->>'evidence_due_by'`, (order) => order.asc().nullsLast())
    .orderBy(sql`chargeback->>'opened_at'`, 'desc')
    .limit(500)
    .execute()
}

/** The transaction whose payment the dispute `disputeId` is on. */
export async function findByDispute(db: Kysely<Database>, disputeId: string): Promise<TransactionRow | undefined> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where(sql<boolean>`chargeback->>'id' = ${disputeId}`)
    .where('chargeback', 'is not', null)
    .executeTakeFirst()
}

import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { uuidPattern } from '../../ids.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'

/** A partner client's transactions, newest first, after `afterId` (ids sort by creation: UUIDv7). */
export async function clientTransactions(
  db: Kysely<Database>,
  input: { clientId: string; afterId: string | undefined; status: string | undefined; limit: number },
): Promise<TransactionRow[]> {
  let query = db.selectFrom('transactions').selectAll().where('client_id', '=', input.clientId)
  if (input.afterId) query = query.where('id', '<', input.afterId)
  if (input.status) query = query.where('status', '=', input.status)
  return query.orderBy('id', 'desc').limit(input.limit).execute()
}

/** One of the client's transactions; undefined for another client's, as for none. */
export async function clientTransaction(db: Kysely<Database>, clientId: string, id: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('id', '=', id).where('client_id', '=', clientId).executeTakeFirst()
}

/** The same under the row's lock, for a change; undefined for another client's or a malformed id, as for none. */
export async function lockClientTransaction(trx: Kysely<Database>, clientId: string, id: string): Promise<TransactionRow | undefined> {
  if (!uuidPattern.test(id)) return undefined
  return trx.selectFrom('transactions').selectAll().where('id', '=', id).where('client_id', '=', clientId).forUpdate().executeTakeFirst()
}

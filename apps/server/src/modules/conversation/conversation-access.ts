import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { findById, findForParty, lockById, lockForParty, notFound } from '../transactions/transactions-repository.ts'
import { roleOf } from '../transactions/transaction-view.ts'

/**
 * Who opens a conversation, and through which door: a party under their
 * kind's prefix (others, and the other kind's ids, are answered 404), or an
 * admin through /admin (any transaction; the engine decides whether they may write).
 */
export type Reader = { userId: string; via: TransactionKind } | { userId: string; via: 'admin' }

/** The transaction whose conversation `reader` may read; 404 otherwise. */
export async function findConversation(db: Kysely<Database>, reader: Reader, transactionId: string): Promise<TransactionRow> {
  return reader.via === 'admin' ? findById(db, transactionId) : findForParty(db, transactionId, reader.userId, reader.via)
}

/** The same, locked for the rest of the database transaction, with the role the writer writes in. */
export async function lockConversation(
  trx: Kysely<Database>,
  reader: Reader,
  transactionId: string,
): Promise<{ row: TransactionRow; role: 'buyer' | 'seller' | 'admin' }> {
  if (reader.via === 'admin') {
    const row = await lockById(trx, transactionId)
    if (!row) throw notFound()
    return { row, role: 'admin' }
  }
  const row = await lockForParty(trx, transactionId, reader.userId, reader.via)
  // The creator of a sale nobody joined yet has no role: no conversation either.
  const role = roleOf(row, reader.userId)
  if (!role) throw notFound()
  return { row, role }
}

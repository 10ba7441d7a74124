import type { JoinExpectedTerms, JoinPreview } from '@pactum/contracts/transactions'
import { normaliseJoinCodeInput } from '@pactum/domain/join-code-format'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { AppError } from '../http/app-error.ts'
import type { CurrentUser } from '../services/users.ts'
import { applyOnlineEvent, type TransactionDeps } from './apply-online-event.ts'
import type { TransactionRow } from './transaction-view.ts'

function joinCodeNotFound(): AppError {
  return new AppError('join_code_not_found', 'No transaction can be joined with this code')
}

async function findJoinable(db: Kysely<Database>, code: string, options: { lock: boolean }): Promise<TransactionRow> {
  const normalised = normaliseJoinCodeInput(code)
  if (normalised.length !== 8) throw joinCodeNotFound()
  let query = db.selectFrom('transactions').selectAll().where('join_code', '=', normalised)
  if (options.lock) query = query.forUpdate()
  const row = await query.executeTakeFirst()
  if (!row) throw joinCodeNotFound()
  return row
}

/** What the counterparty sees before deciding to join. */
export async function previewJoin(db: Kysely<Database>, user: CurrentUser, code: string): Promise<JoinPreview> {
  const row = await findJoinable(db, code, { lock: false })
  const creator = await db.selectFrom('users').select('first_name').where('id', '=', row.creator_id).executeTakeFirst()
  if (row.creator_id === user.id) {
    throw new AppError('cannot_join_own_transaction', 'You created this transaction; share the code with the other party')
  }
  return {
    id: row.id,
    type: row.type as JoinPreview['type'],
    status: row.status as JoinPreview['status'],
    price: row.price,
    charge: row.charge,
    currency: row.currency,
    description: row.description,
    payment_method: row.payment_method as JoinPreview['payment_method'],
    high_value: row.high_value,
    creator_role: row.creator_role as JoinPreview['creator_role'],
    creator_first_name: creator?.first_name ?? '',
  }
}

/** Joins as the role the creator left open; the code stops working. */
export async function joinTransaction(
  deps: TransactionDeps,
  user: CurrentUser,
  code: string,
  expected: JoinExpectedTerms = {},
): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await findJoinable(trx, code, { lock: true })
    if (row.creator_id === user.id) {
      throw new AppError('cannot_join_own_transaction', 'You created this transaction; share the code with the other party')
    }
    const changed =
      (expected.price !== undefined && expected.price !== row.price) ||
      (expected.charge !== undefined && expected.charge !== row.charge) ||
      (expected.currency !== undefined && expected.currency !== row.currency)
    if (changed) {
      throw new AppError('incorrect_charge', 'The offer changed since you looked at it; review it again', {
        details: { price: row.price, charge: row.charge, currency: row.currency },
      })
    }
    const joined = await applyOnlineEvent(deps, trx, row, { type: 'join' }, { actor: { kind: 'counterparty' }, actorUserId: user.id })
    return trx
      .updateTable('transactions')
      .set(row.creator_role === 'seller' ? { buyer_id: user.id, join_code: null } : { seller_id: user.id, join_code: null })
      .where('id', '=', joined.id)
      .returningAll()
      .executeTakeFirstOrThrow()
  })
}

/** The counterparty declines: they need the code, since they are no party yet. */
export async function rejectTransaction(deps: TransactionDeps, user: CurrentUser, id: string, code: string): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await findJoinable(trx, code, { lock: true })
    if (row.id !== id) throw joinCodeNotFound()
    if (row.creator_id === user.id) {
      throw new AppError('cannot_join_own_transaction', 'Cancel your own transaction instead of rejecting it')
    }
    const rejected = await applyOnlineEvent(deps, trx, row, { type: 'reject' }, { actor: { kind: 'counterparty' }, actorUserId: user.id })
    return trx.updateTable('transactions').set({ join_code: null }).where('id', '=', rejected.id).returningAll().executeTakeFirstOrThrow()
  })
}

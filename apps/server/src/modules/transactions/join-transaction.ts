import type { F2fJoinPreview } from '@pactum/contracts/f2f-transactions'
import type { JoinExpectedTerms, JoinPreview } from '@pactum/contracts/transactions'
import { checkJoinCode } from '@pactum/domain/join-code-format'
import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import { applyEvent, type TransactionDeps } from './engine/apply-event.ts'
import type { TransactionRow } from './engine/transaction-state.ts'
import { findFirstName } from './parties-repository.ts'
import { findByJoinCode } from './transactions-repository.ts'

function joinCodeNotFound(): AppError {
  return new AppError('join_code_not_found', 'No transaction can be joined with this code')
}

/**
 * Whether `user` has joined: took the place the creator left open, and the
 * transaction has moved on from `created` (a listing's sale has both parties
 * while it waits for its seller, who has joined nothing).
 */
function joinedBy(row: TransactionRow, user: CurrentUser): boolean {
  // A partner's sale (no creator user) waits in `created` for its invited party even after its code was used.
  const moved = row.status !== 'created' || row.creator_id === null
  return moved && (row.creator_role === 'seller' ? row.buyer_id : row.seller_id) === user.id
}

/**
 * A code of the other kind leads nowhere here, as a wrong one does. Case,
 * spaces and hyphens are forgiven; a character outside the alphabet makes
 * it no code (never repaired by dropping it: NOTACODE23 is not NTACDE23).
 * A code already used leads its joiner, and only them, to the transaction
 * they joined with it: to anyone else it is no code any more.
 */
async function findJoinable(
  db: Kysely<Database>,
  user: CurrentUser,
  code: string,
  kind: TransactionKind | null,
  options: { lock: boolean },
): Promise<TransactionRow> {
  const checked = checkJoinCode(code)
  if (!checked.valid) throw joinCodeNotFound()
  const byCode = (column: 'join_code' | 'joined_with_code') => findByJoinCode(db, column, checked.code, kind, options)
  const live = (await byCode('join_code'))[0]
  if (live) return live
  const joined = (await byCode('joined_with_code')).find((row) => joinedBy(row, user))
  if (!joined) throw joinCodeNotFound()
  return joined
}

/** What the counterparty of either kind sees before joining: the offer, who made it, and whether they already joined with this code. */
async function previewOf(db: Kysely<Database>, user: CurrentUser, code: string, kind: TransactionKind | null) {
  const row = await findJoinable(db, user, code, kind, { lock: false })
  if (row.creator_id === user.id) {
    throw new AppError('cannot_join_own_transaction', 'You created this transaction; share the code with the other party')
  }
  const creator = await findFirstName(db, row.creator_id)
  const shared = {
    id: row.id,
    currency: row.currency,
    description: row.description,
    quantity: row.quantity,
    charge_seller: row.charge_seller,
    client_id: row.client_id,
    high_value: row.high_value,
    is_payment_in_progress: row.is_payment_in_progress,
    created: row.created.toISOString(),
    creator_role: row.creator_role as JoinPreview['creator_role'],
    creator_first_name: creator?.first_name ?? '',
    joined_by_you: joinedBy(row, user),
  }
  return { row, shared }
}

type SharedPreview = Awaited<ReturnType<typeof previewOf>>

/**
 * `GET /transactions?join_code=`: the preview of the sale behind the code,
 * of either kind (`type` says which). A join link does not say its sale's
 * kind, and asking the online look-up and then, after its 404, the
 * face-to-face one put a 4xx in every face-to-face joiner's console
 * (issue 33 item 13). `/p2p/transactions_by_join_code/{code}` still
 * answers face-to-face codes only.
 */
export async function previewJoin(db: Kysely<Database>, user: CurrentUser, code: string): Promise<JoinPreview | F2fJoinPreview> {
  const preview = await previewOf(db, user, code, null)
  return preview.row.type === 'f2f' ? f2fPreviewOf(preview) : onlinePreviewOf(preview)
}

/** What the counterparty of an online sale sees before deciding to join. */
function onlinePreviewOf({ row, shared }: SharedPreview): JoinPreview {
  return {
    ...shared,
    type: 'online',
    status: row.status as JoinPreview['status'],
    price: row.price,
    charge: row.charge,
    payment_method: row.payment_method as JoinPreview['payment_method'],
  }
}

/** `GET /p2p/transactions_by_join_code/{code}`: a face-to-face sale's preview. */
export async function previewF2fJoin(db: Kysely<Database>, user: CurrentUser, code: string): Promise<F2fJoinPreview> {
  return f2fPreviewOf(await previewOf(db, user, code, 'f2f'))
}

/** What the counterparty of a face-to-face sale sees before joining: the deposit asked for. */
function f2fPreviewOf({ row, shared }: SharedPreview): F2fJoinPreview {
  return {
    ...shared,
    type: 'f2f',
    status: row.status as F2fJoinPreview['status'],
    deposit_pricing: { price: row.price, charge: row.charge, charge_seller: row.charge_seller },
    payment_method: row.payment_method as F2fJoinPreview['payment_method'],
  }
}

/**
 * Joins as the role the creator left open; the code stops working for
 * anyone else. The person who joined may send the join again (its answer
 * lost on the way, a second tap): it answers as the join did, with the
 * transaction as it is now and nothing recorded or sent twice.
 */
export async function joinTransaction(
  deps: TransactionDeps,
  user: CurrentUser,
  code: string,
  kind: TransactionKind,
  expected: JoinExpectedTerms = {},
): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await findJoinable(trx, user, code, kind, { lock: true })
    if (joinedBy(row, user)) return row
    const changed =
      (expected.price !== undefined && expected.price !== row.price) ||
      (expected.charge !== undefined && expected.charge !== row.charge) ||
      (expected.currency !== undefined && expected.currency !== row.currency)
    if (row.creator_id !== user.id && changed) {
      throw new AppError('incorrect_charge', 'The offer changed since you looked at it; review it again', {
        details: { price: row.price, charge: row.charge, currency: row.currency },
      })
    }
    // The engine clears join_code and keeps it as joined_with_code, findable for this joiner's replay.
    return applyEvent(deps, trx, row, { type: 'join', userId: user.id }, { actor: { kind: 'counterparty' }, actorUserId: user.id })
  })
}

/** The counterparty declines: they need the code, since they are no party yet. */
export async function rejectTransaction(
  deps: TransactionDeps,
  user: CurrentUser,
  id: string,
  code: string,
  kind: TransactionKind,
): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await findJoinable(trx, user, code, kind, { lock: true })
    if (row.id !== id) throw joinCodeNotFound()
    if (row.creator_id === user.id) {
      throw new AppError('cannot_join_own_transaction', 'Cancel your own transaction instead of rejecting it')
    }
    return applyEvent(deps, trx, row, { type: 'reject' }, { actor: { kind: 'counterparty' }, actorUserId: user.id })
  })
}

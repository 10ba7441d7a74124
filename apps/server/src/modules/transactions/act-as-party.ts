import type { TransactionEvent, TransactionKind } from '@pactum/domain/transactions/transaction'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import { applyEvent, type TransactionDeps } from './engine/apply-event.ts'
import type { TransactionRow } from './engine/transaction-state.ts'
import { lockById, lockForParty, notFound } from './transactions-repository.ts'
import { roleOf } from './transaction-view.ts'

/**
 * A party's action on their transaction (cancel, track, accept the deposit,
 * complain, …): lock the row, let the domain decide with the caller's role,
 * persist. Others (and the other kind's paths) get 404, the wrong role 403,
 * the wrong state 409.
 */
export async function actAsParty(
  deps: TransactionDeps,
  user: CurrentUser,
  id: string,
  event: TransactionEvent,
  kind: TransactionKind,
): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => (await applyAsParty(deps, trx, user, id, event, kind)).updated)
}

/**
 * `event` applied on `trx` as the party `user` is in the sale, under the row's
 * lock; a sale they take no part in is not found. For use cases that do more
 * in the same database transaction (a listing closed with its accepted sale).
 */
export async function applyAsParty(
  deps: TransactionDeps,
  trx: Kysely<Database>,
  user: CurrentUser,
  id: string,
  event: TransactionEvent,
  kind: TransactionKind,
): Promise<{ row: TransactionRow; updated: TransactionRow }> {
  const row = await lockForParty(trx, id, user.id, kind)
  const role = roleOf(row, user.id)
  if (!role) throw notFound()
  return { row, updated: await applyEvent(deps, trx, row, event, { actor: { kind: role }, actorUserId: user.id }) }
}

/** An administrator's action, always with a reason recorded beside who and when. */
export async function actAsAdmin(
  deps: TransactionDeps,
  admin: CurrentUser,
  id: string,
  event: TransactionEvent,
  reason: string,
): Promise<TransactionRow> {
  return actAsAdminInSteps(deps, admin, id, [event], reason)
}

/**
 * One administrator's decision taken in several steps, in order, in one
 * database transaction under the row's lock, each with the reason: the
 * admin's own record (evidence sent, a dispute accepted), then the provider's
 * answer to it.
 */
export async function actAsAdminInSteps(
  deps: TransactionDeps,
  admin: CurrentUser,
  id: string,
  events: readonly TransactionEvent[],
  reason: string,
): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    let row = await lockById(trx, id)
    if (!row) throw notFound()
    for (const event of events) row = await applyEvent(deps, trx, row, event, { actor: { kind: 'admin' }, actorUserId: admin.id, reason })
    return row
  })
}

/** Timers and webhooks: no user; a transaction gone or moved on is simply left alone. */
export async function actAsSystem(deps: TransactionDeps, id: string, event: TransactionEvent): Promise<TransactionRow | undefined> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockById(trx, id)
    if (!row) return undefined
    return applyEvent(deps, trx, row, event, { actor: { kind: 'system' }, actorUserId: null })
  })
}

import type { OnlineEvent } from '@pactum/domain/online-transaction'
import type { CurrentUser } from '../services/users.ts'
import { applyOnlineEvent, type TransactionDeps } from './apply-online-event.ts'
import { lockById, lockForParty, notFound } from './transactions-repository.ts'
import { roleOf, type TransactionRow } from './transaction-view.ts'

/**
 * A party's action on their transaction (cancel, track, confirm delivery,
 * complain, …): lock the row, let the domain decide with the caller's role,
 * persist. Others get 404, the wrong role 403, the wrong state 409.
 */
export async function actAsParty(deps: TransactionDeps, user: CurrentUser, id: string, event: OnlineEvent): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockForParty(trx, id, user.id)
    const role = roleOf(row, user.id)
    if (!role) throw notFound()
    const next = await applyOnlineEvent(deps, trx, row, event, { actor: { kind: role }, actorUserId: user.id })
    // Once cancelled or rejected, the code must not lead anywhere.
    if (next.join_code && next.status !== 'created') {
      return trx.updateTable('transactions').set({ join_code: null }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
    }
    return next
  })
}

/** An administrator's action, always with a reason recorded beside who and when. */
export async function actAsAdmin(deps: TransactionDeps, admin: CurrentUser, id: string, event: OnlineEvent, reason: string): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockById(trx, id)
    if (!row) throw notFound()
    return applyOnlineEvent(deps, trx, row, event, { actor: { kind: 'admin' }, actorUserId: admin.id, reason })
  })
}

/** Timers and webhooks: no user; a transaction gone or moved on is simply left alone. */
export async function actAsSystem(deps: TransactionDeps, id: string, event: OnlineEvent): Promise<TransactionRow | undefined> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockById(trx, id)
    if (!row) return undefined
    return applyOnlineEvent(deps, trx, row, event, { actor: { kind: 'system' }, actorUserId: null })
  })
}

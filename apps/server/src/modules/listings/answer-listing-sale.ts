import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import { applyEvent, type TransactionDeps } from '../transactions/engine/apply-event.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { roleOf } from '../transactions/transaction-view.ts'
import { lockForParty, notFound } from '../transactions/transactions-repository.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import { closeIfSingleUse } from './listings-repository.ts'

/**
 * The seller accepts or rejects a purchase made from their listing, through
 * the engine. Accepting the sale of a single-use listing closes the listing
 * in the same database transaction: its first accepted sale is its last.
 */
export async function answerListingSale(
  deps: TransactionDeps,
  user: CurrentUser,
  id: string,
  answer: 'accept' | 'reject',
  kind: TransactionKind,
): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockForParty(trx, id, user.id, kind)
    const role = roleOf(row, user.id)
    if (!role) throw notFound()
    const event = answer === 'accept' ? ({ type: 'accept_listing' } as const) : ({ type: 'reject_listing' } as const)
    const updated = await applyEvent(deps, trx, row, event, { actor: { kind: role }, actorUserId: user.id })
    if (answer === 'accept' && row.listing_id) {
      await closeIfSingleUse(trx, row.listing_id, deps.clock.now())
    }
    return updated
  })
}

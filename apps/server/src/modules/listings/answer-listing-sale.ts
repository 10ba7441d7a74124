import type { TransactionKind } from '@pactum/domain/transactions/transaction'
import { applyAsParty } from '../transactions/act-as-party.ts'
import type { TransactionDeps } from '../transactions/engine/apply-event.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
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
    const event = answer === 'accept' ? ({ type: 'accept_listing' } as const) : ({ type: 'reject_listing' } as const)
    const { row, updated } = await applyAsParty(deps, trx, user, id, event, kind)
    if (answer === 'accept' && row.listing_id) {
      await closeIfSingleUse(trx, row.listing_id, deps.clock.now())
    }
    return updated
  })
}

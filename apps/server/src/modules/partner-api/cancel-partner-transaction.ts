import { partnerCancellationDescription } from '@pactum/contracts/partner-transactions'
import { transactionActions } from '@pactum/contracts/transaction-actions'
import { applyEvent, type TransactionDeps } from '../transactions/engine/apply-event.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { notFound } from '../transactions/transactions-repository.ts'
import { lockClientTransaction } from './partner-transactions-repository.ts'

/**
 * The partner client calls off a transaction made under it (issue 35): the
 * catalogue's `cancel`, as the partner actor, through the one writer. The
 * domain takes it only while nobody has paid, refusing with its own code
 * (`already_paid`, `payment_in_progress`, …); the parties already in are
 * told as by a cancelling party, the event log names the partner as the
 * actor (the transaction's client says which), and the partner's own
 * `transaction.cancelled` event follows from the change of status. A
 * face-to-face cancellation carries its fixed text, as the creator's does.
 */
export async function cancelPartnerTransaction(deps: TransactionDeps, client: { id: string }, id: string): Promise<TransactionRow> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockClientTransaction(trx, client.id, id)
    if (!row) throw notFound()
    const event = transactionActions.cancel.event(row.type === 'f2f' ? { description: partnerCancellationDescription } : undefined)
    return applyEvent(deps, trx, row, event, { actor: { kind: 'partner' }, actorUserId: null })
  })
}

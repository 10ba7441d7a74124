import type { CaseView } from '@pactum/contracts/disputes'
import { caseDeadlines } from '@pactum/domain/transactions/dispute-case'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { toState } from '../transactions/engine/transaction-state.ts'
import { disputed as f2fDisputed } from '@pactum/domain/transactions/f2f-rules'
import { disputed as onlineDisputed } from '@pactum/domain/transactions/online-rules'

/**
 * A complaint's case as the parties and the admins read it (GET …/case):
 * the state machine's case, its deadlines, and the money it is about. Null
 * when no complaint was made.
 */
export function toCaseView(row: TransactionRow): CaseView | null {
  const state = toState(row)
  const complaint = state.complaint
  const openedAt = state.timestamps.complained
  if (complaint === null || openedAt === null) return null
  const { summaryDue, finalAnswerDue } = caseDeadlines(openedAt)
  const price = state.kind === 'online' ? onlineDisputed(state).price : f2fDisputed(state).price
  return {
    transaction_id: row.id,
    state: state.status !== 'complained' ? 'closed' : complaint.escalatedAt !== null ? 'escalated' : 'open',
    reason: complaint.reason,
    description: complaint.description,
    opened_at: openedAt.toISOString(),
    currency: state.currency,
    price_in_dispute: price,
    response_deadline: complaint.responseDeadline?.toISOString() ?? null,
    escalated_at: complaint.escalatedAt?.toISOString() ?? null,
    summary_due: summaryDue.toISOString(),
    final_answer_due: finalAnswerDue.toISOString(),
    // Stored in the API's own shape (transaction-state.ts `storedOffer`).
    offers: row.settlement_offers,
    amount_refunded: state.amountRefunded,
    amount_released: state.amountReleased,
  }
}

import type { AdminChargeback } from '@pactum/contracts/chargebacks'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { chargebackView } from '../transactions/transaction-view.ts'

/** A dispute as the admin console shows it; null for a transaction without one. */
export function toAdminChargeback(row: TransactionRow): AdminChargeback | null {
  const stored = row.chargeback
  const view = chargebackView(row)
  if (stored === null || view === null) return null
  const lostAfterRelease = stored.status === 'lost' && !stored.froze
  return {
    ...view,
    id: stored.id,
    transaction_id: row.id,
    transaction_type: row.type === 'f2f' ? 'f2f' : 'online',
    description: row.description,
    currency: row.currency,
    transaction_status: row.status,
    payment_intent_id: stored.payment_intent_id,
    opened_at: stored.opened_at,
    closed_at: stored.closed_at,
    evidence_submitted_at: stored.evidence_submitted_at,
    fee: stored.fee,
    recovered: stored.recovered,
    // As the state machine caps it (chargeback.ts `recover_chargeback`).
    recoverable: lostAfterRelease ? Math.max(0, Math.min(stored.amount, row.amount_released) - stored.recovered) : 0,
  }
}

import type { ReconciliationDay, ReconciliationDifference } from '@pactum/contracts/reconciliation'
import type { CurrencyTotals } from '@pactum/domain/reconciliation'
import type { DifferenceRow, findDay } from './reconciliation-repository.ts'

type Stored = Awaited<ReturnType<typeof findDay>>

const side = (amount: number | string | null, currency: string | null) =>
  amount === null || currency === null ? null : { amount: Number(amount), currency }

const totalsView = (totals: CurrencyTotals[]) => totals.map(({ paidOut, ...rest }) => ({ ...rest, paid_out: paidOut }))

export function toDifferenceView(row: DifferenceRow): ReconciliationDifference {
  return {
    id: row.id,
    kind: row.kind as ReconciliationDifference['kind'],
    movement: row.movement as ReconciliationDifference['movement'],
    provider_id: row.provider_id,
    transaction_id: row.transaction_id,
    ledger: side(row.ledger_amount, row.ledger_currency),
    provider: side(row.provider_amount, row.provider_currency),
    status: row.status,
    reason: row.reason,
    explained_by: row.explained_by_email ?? row.explained_by,
    explained_at: row.explained_at?.toISOString() ?? null,
    found_at: row.found_at.toISOString(),
  }
}

export function toDayView(date: string, { stored, differences }: Stored): ReconciliationDay {
  const totals = (stored?.totals ?? { ledger: [], provider: [] }) as { ledger: CurrencyTotals[]; provider: CurrencyTotals[] }
  return {
    date,
    reconciled: stored !== undefined,
    reconciled_at: stored?.reconciled_at.toISOString() ?? null,
    provider: stored?.provider ?? null,
    totals: { ledger: totalsView(totals.ledger), provider: totalsView(totals.provider) },
    differences: differences.map(toDifferenceView),
  }
}

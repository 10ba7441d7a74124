import { compareDay, type DayComparison } from '@pactum/domain/reconciliation'
import type { Kysely } from 'kysely'
import type { Payments } from '../../adapters/payment-provider/payments-port.ts'
import type { Database } from '../../db/schema.ts'
import { ledgerMovements } from './ledger-movements-repository.ts'
import { recordDay } from './reconciliation-repository.ts'

const dayMs = 86_400_000

/** The UTC day [from, to) of a YYYY-MM-DD date. */
export function utcDay(day: string): { from: Date; to: Date } {
  const from = new Date(`${day}T00:00:00Z`)
  if (Number.isNaN(from.getTime()) || from.toISOString().slice(0, 10) !== day) throw new RangeError(`not a date: ${day}`)
  return { from, to: new Date(from.getTime() + dayMs) }
}

/** Yesterday's date (UTC) at `now`: the day the daily job reconciles. */
export function yesterdayOf(now: Date): string {
  return new Date(now.getTime() - dayMs).toISOString().slice(0, 10)
}

/**
 * Compares one UTC day of the ledger with the provider's balance and
 * records the result (decision 107). Safe to run again for the same day.
 * A payment that reached the provider just before midnight is booked by
 * its webhook just after: the ledger's movements of the day that the
 * provider showed the day before were reconciled then, and are left out.
 */
export async function reconcileDay(
  deps: { db: Kysely<Database>; payments: Pick<Payments, 'name' | 'listBalanceMovements'>; now: Date },
  day: string,
): Promise<DayComparison> {
  const range = utcDay(day)
  const provider = await deps.payments.listBalanceMovements(range)
  const ids = provider.flatMap((movement) => (movement.objectId ? [movement.objectId] : []))
  let ledger = await ledgerMovements(deps.db, range, ids)
  const seenToday = new Set(ids)
  const unseen = ledger.filter((movement) => !seenToday.has(movement.providerId))
  if (unseen.length > 0) {
    const dayBefore = await deps.payments.listBalanceMovements({ from: new Date(range.from.getTime() - dayMs), to: range.from })
    const seenBefore = new Set(dayBefore.map((movement) => `${movement.kind}:${movement.objectId}`))
    ledger = ledger.filter((movement) => seenToday.has(movement.providerId) || !seenBefore.has(`${movement.kind}:${movement.providerId}`))
  }
  const comparison = compareDay({ ledger, provider })
  await recordDay(deps.db, {
    day,
    provider: deps.payments.name,
    reconciledAt: deps.now,
    totals: comparison.totals,
    differences: comparison.differences,
  })
  return comparison
}

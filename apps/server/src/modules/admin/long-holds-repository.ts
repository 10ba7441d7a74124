import type { LongHold } from '@pactum/contracts/admin'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { escrowPrefix } from '../../ledger/accounts.ts'

const dayMs = 86_400_000

/**
 * Money held longer than `alertDays` at `now` (issue 34, "long holds
 * watched"): every escrow account that still holds money and whose first
 * hold is older than that, oldest first. The escrow balance is the truth
 * of what is held (the ledger, not the status), so a sale stuck in any
 * state shows up; the status and the case say why it is still held.
 */
export async function longHolds(db: Kysely<Database>, now: Date, alertDays: number): Promise<LongHold[]> {
  const cutoff = new Date(now.getTime() - alertDays * dayMs)
  const rows = await sql<{
    transaction_id: string
    type: string
    status: string
    currency: string
    held: string | number
    held_since: Date
    updated_at: Date
    case_response_deadline: Date | null
    case_escalated_at: Date | null
  }>`
    select t.id as transaction_id, t.type, t.status, b.currency, b.held, b.held_since,
      t.updated_at, t.case_response_deadline, t.case_escalated_at
    from (
      select e.transaction_id, p.currency, sum(p.amount) as held,
        min(e.created_at) filter (where e.kind = 'hold') as held_since
      from ledger_postings p
      join ledger_entries e on e.id = p.entry_id
      where p.account like ${`${escrowPrefix}%`}
      group by e.transaction_id, p.currency
    ) b
    join transactions t on t.id = b.transaction_id
    where b.held > 0 and b.held_since < ${cutoff}
    order by b.held_since asc, t.id asc
  `.execute(db)
  return rows.rows.map((row) => {
    const heldSince = new Date(row.held_since)
    return {
      transaction_id: row.transaction_id,
      type: row.type as LongHold['type'],
      status: row.status as LongHold['status'],
      amount: Number(row.held),
      currency: row.currency as LongHold['currency'],
      held_since: heldSince.toISOString(),
      days_held: Math.floor((now.getTime() - heldSince.getTime()) / dayMs),
      last_change_at: new Date(row.updated_at).toISOString(),
      case: row.case_escalated_at ? 'with_admin' : row.case_response_deadline ? 'with_seller' : null,
    }
  })
}

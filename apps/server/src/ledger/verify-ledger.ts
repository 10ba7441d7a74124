import { holdResolvingKinds, refundingKinds } from '@pactum/domain/ledger-rules'
import { terminalStatusesByKind } from '@pactum/domain/transactions/transaction'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../db/schema.ts'
import { disputedPrefix, escrowPrefix } from './accounts.ts'

export interface LedgerBreach {
  rule:
    | 'entry_unbalanced'
    | 'escrow_negative'
    | 'escrow_not_zero_after_terminal_state'
    | 'hold_resolved_twice'
    | 'transaction_amounts_disagree'
    | 'disputed_negative'
    | 'disputed_not_zero_without_open_dispute'
  transaction_id: string | null
  detail: string
}

/**
 * Checks the ledger invariants of DESIGN §2 over the whole database and
 * lists every breach (an empty list means the books are sound). Used by
 * `npm run cli -- ledger verify`, `GET /admin/ledger/verify` and after every
 * integration test.
 */
export async function verifyLedger(db: Kysely<Database>): Promise<LedgerBreach[]> {
  const breaches: LedgerBreach[] = []

  const unbalanced = await db
    .selectFrom('ledger_postings as p')
    .innerJoin('ledger_entries as e', 'e.id', 'p.entry_id')
    .select(['e.id', 'e.transaction_id', 'p.currency', sql<number>`sum(p.amount)`.as('total')])
    .groupBy(['e.id', 'e.transaction_id', 'p.currency'])
    .having(sql`sum(p.amount)`, '<>', 0)
    .execute()
  for (const row of unbalanced) {
    breaches.push({
      rule: 'entry_unbalanced',
      transaction_id: row.transaction_id,
      detail: `entry ${row.id} sums to ${row.total} ${row.currency}`,
    })
  }

  // The running balance of every escrow account, posting by posting in the
  // order they were written (an escrow's postings are serialised by its
  // transaction's row lock): it may never dip below zero.
  const negative = await sql<{ account: string; running: number; entry_id: string }>`
    select account, running, entry_id from (
      select p.account, p.entry_id,
             sum(p.amount) over (partition by p.account, p.currency order by p.id) as running
      from ledger_postings p join ledger_entries e on e.id = p.entry_id
      where p.account like ${`${escrowPrefix}%`}
    ) balances where running < 0
  `.execute(db)
  for (const row of negative.rows) {
    breaches.push({
      rule: 'escrow_negative',
      transaction_id: row.account.slice(escrowPrefix.length),
      detail: `${row.account} at ${row.running} after entry ${row.entry_id}`,
    })
  }

  // A card dispute's account (docs/decisions/109) is escrow's twin: never
  // below zero, and back at zero once the dispute is won or lost.
  const disputedNegative = await sql<{ account: string; running: number; entry_id: string }>`
    select account, running, entry_id from (
      select p.account, p.entry_id,
             sum(p.amount) over (partition by p.account, p.currency order by p.id) as running
      from ledger_postings p
      where p.account like ${`${disputedPrefix}%`}
    ) balances where running < 0
  `.execute(db)
  for (const row of disputedNegative.rows) {
    breaches.push({
      rule: 'disputed_negative',
      transaction_id: row.account.slice(disputedPrefix.length),
      detail: `${row.account} at ${row.running} after entry ${row.entry_id}`,
    })
  }
  const disputedLeft = await sql<{ id: string; balance: number }>`
    select t.id, sum(p.amount) as balance
    from transactions t
    join ledger_postings p on p.account = ${disputedPrefix} || t.id::text
    where t.chargeback is null or t.chargeback->>'closed_at' is not null
    group by t.id
    having sum(p.amount) <> 0
  `.execute(db)
  for (const row of disputedLeft.rows) {
    breaches.push({
      rule: 'disputed_not_zero_without_open_dispute',
      transaction_id: row.id,
      detail: `${row.balance} still in dispute with no dispute open`,
    })
  }

  const terminalNotZero = await sql<{ id: string; balance: number }>`
    select t.id, coalesce(sum(p.amount), 0) as balance
    from transactions t
    left join ledger_postings p on p.account = ${escrowPrefix} || t.id::text
    where (t.type = 'online' and t.status in (${sql.join([...terminalStatusesByKind.online])}))
       or (t.type = 'f2f' and t.status in (${sql.join([...terminalStatusesByKind.f2f])}))
    group by t.id
    having coalesce(sum(p.amount), 0) <> 0
  `.execute(db)
  for (const row of terminalNotZero.rows) {
    breaches.push({
      rule: 'escrow_not_zero_after_terminal_state',
      transaction_id: row.id,
      detail: `escrow holds ${row.balance} in a terminal state`,
    })
  }

  const resolvedTwice = await db
    .selectFrom('ledger_entries')
    .select(['transaction_id', sql<number>`count(*)`.as('resolutions')])
    .where('kind', 'in', [...holdResolvingKinds])
    .groupBy('transaction_id')
    .having(sql`count(*)`, '>', 1)
    .execute()
  for (const row of resolvedTwice) {
    breaches.push({
      rule: 'hold_resolved_twice',
      transaction_id: row.transaction_id,
      detail: `${row.resolutions} resolutions`,
    })
  }

  // What the transaction row says was held, released (to the seller) and
  // refunded (to the buyer: out of escrow, or sent straight back unheld)
  // must match the books.
  const disagreements = await sql<{
    id: string
    amount_held: number
    held: number
    amount_released: number
    released: number
    amount_refunded: number
    refunded: number
  }>`
    select * from (
      select t.id, t.amount_held, t.amount_released, t.amount_refunded,
        coalesce(sum(case when e.kind = 'hold' and p.account = ${escrowPrefix} || t.id::text then p.amount end), 0) as held,
        coalesce(sum(case when e.kind in ('release', 'split') and p.account like 'seller:%' then p.amount end), 0) as released,
        coalesce(sum(case when e.kind in (${sql.join([...refundingKinds])}) and p.account like 'buyer_refund:%' then p.amount end), 0) as refunded
      from transactions t
      left join ledger_entries e on e.transaction_id = t.id
      left join ledger_postings p on p.entry_id = e.id
      group by t.id
    ) books
    where amount_held <> held or amount_released <> released or amount_refunded <> refunded
  `.execute(db)
  for (const row of disagreements.rows) {
    breaches.push({
      rule: 'transaction_amounts_disagree',
      transaction_id: row.id,
      detail: `row says held ${row.amount_held}/released ${row.amount_released}/refunded ${row.amount_refunded}, ledger ${row.held}/${row.released}/${row.refunded}`,
    })
  }
  return breaches
}

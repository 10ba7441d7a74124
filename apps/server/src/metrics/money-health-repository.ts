import { type Kysely, sql } from 'kysely'
import type { Database } from '../db/schema.ts'
import { escrowPrefix } from '../ledger/accounts.ts'

/**
 * What the metrics read of the money's health (issue 37), each one
 * statement: how late the oldest due timer is, what the outbox and the
 * e-mails still owe, and how much escrow holds per currency.
 */

/** Seconds since the oldest transaction timer fell due and was not fired (0 when none is late). */
export async function timerLagSeconds(db: Kysely<Database>, now: Date): Promise<number> {
  const { rows } = await sql<{ oldest: Date | null }>`
    select min(start_after) as oldest from pgboss.job
    where name = 'transaction-timer' and state in ('created', 'retry') and start_after <= ${now}`.execute(db)
  const oldest = rows[0]?.oldest
  return oldest ? Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000) : 0
}

/** Outbox rows not yet accepted by the provider, per kind (transfer, refund, reverse_transfer). */
export async function outboxPendingByKind(db: Kysely<Database>): Promise<Array<{ kind: string; count: number }>> {
  const rows = await db
    .selectFrom('outbox')
    .select(['action', (eb) => eb.fn.countAll<string>().as('n')])
    .where('status', '<>', 'sent')
    .groupBy('action')
    .execute()
  return rows.map((row) => ({ kind: row.action, count: Number(row.n) }))
}

/** State-change e-mails still to send (pending or being sent; not those refused for good or opted out of). */
export async function notificationsPending(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', 'in', ['pending', 'sending'])
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** What every escrow account holds together, per currency, in minor units. */
export async function heldByCurrency(db: Kysely<Database>): Promise<Array<{ currency: string; amount: number }>> {
  const rows = await db
    .selectFrom('ledger_postings')
    .select(['currency', (eb) => eb.fn.sum<string>('amount').as('amount')])
    .where('account', 'like', `${escrowPrefix}%`)
    .groupBy('currency')
    .execute()
  return rows.map((row) => ({ currency: row.currency, amount: Number(row.amount ?? 0) }))
}

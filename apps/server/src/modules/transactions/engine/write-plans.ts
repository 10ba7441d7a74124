import { type Kysely, sql } from 'kysely'
import type { TransactionPolicy } from '@pactum/domain/transactions/kernel'
import type { Database } from '../../../db/schema.ts'
import { appendLedgerEntries } from '../../../ledger/append-entry.ts'
import type { NotificationJob } from '../../notifications/notifications-repository.ts'
import { recordPartnerEvent } from '../../partner-webhooks/partner-events-repository.ts'
import type { EffectScheduler } from './effects.ts'
import type { AuditLine, EventPlan, PlannedOutboxRow } from './plan-event.ts'
import type { TransactionRow } from './transaction-state.ts'

export interface WriteDeps {
  effects: EffectScheduler
  policy: TransactionPolicy
  publicUrl?: string
}

/**
 * Writes the plans of accepted events (plan-event.ts) in the caller's
 * database transaction, one statement of each kind for the whole batch
 * rather than one per event: the transactions' new states, their audit
 * lines, the ledger entries and the outbox rows. Plans are in the order
 * their events were decided; several of one transaction (two timers of one
 * sale in a group) each saw the one before, so its last plan holds the row
 * to write. Returns each plan's row as written.
 */
export async function writePlans(deps: WriteDeps, trx: Kysely<Database>, plans: EventPlan[]): Promise<TransactionRow[]> {
  const changed = plans.filter((plan) => plan.changed)
  if (changed.length === 0) return plans.map((plan) => plan.after)

  const written = await updateRows(trx, changed)
  const auditIds = await insertAuditLines(
    trx,
    changed,
    changed.some((plan) => plan.notifications.length > 0),
  )
  await appendLedgerEntries(
    trx,
    changed.flatMap((plan) => plan.ledger),
  )
  for (const timer of changed.flatMap((plan) => plan.timers)) await deps.effects.scheduleTimer(trx, timer)
  await insertOutboxRows(deps, trx, changed)

  const notifications: NotificationJob[] = changed.flatMap((plan, index) =>
    plan.notifications.map((notification) => ({
      ...notification,
      // Names the e-mail: a retried job carries the same key and is not
      // sent again, while a later state change with the same template (a
      // second failed payment) has its own audit event and so its own key.
      // The domain never repeats a template and recipient within one step.
      key: `${notification.transactionId}:${auditIds[index]}:${notification.template}:${notification.to}`,
    })),
  )
  if (notifications.length > 0) await deps.effects.notify(trx, notifications)

  const rowsAfter = plans.map((plan) =>
    plan === lastPlanOf(plans, plan.after.id) ? (written.get(plan.after.id) ?? plan.after) : plan.after,
  )
  // A partner hears of each change in order: each takes the next number of its transaction.
  const context = { policy: deps.policy, publicUrl: deps.publicUrl ?? '' }
  for (const [index, plan] of plans.entries()) {
    if (!plan.changed || !plan.partner.announce) continue
    const announced = await recordPartnerEvent(trx, rowsAfter[index]!, { ...context, now: plan.audit[0]!.at }, plan.partner.ofChange)
    if (announced) await deps.effects.deliverWebhooks(trx, plan.after.id)
  }
  return rowsAfter
}

function lastPlanOf(plans: EventPlan[], transactionId: string): EventPlan | undefined {
  return plans.findLast((plan) => plan.after.id === transactionId)
}

/**
 * The new states in one UPDATE: each transaction's last state in the batch,
 * sent as one JSON array that PostgreSQL reads as rows of the table's own
 * type, so every column keeps its type without a cast per value.
 */
async function updateRows(trx: Kysely<Database>, plans: EventPlan[]): Promise<Map<string, TransactionRow>> {
  const finalRows = new Map<string, EventPlan>()
  for (const plan of plans) if (plan.stateChanged) finalRows.set(plan.after.id, plan)
  if (finalRows.size === 0) return new Map()
  const columns = [...new Set([...finalRows.values()].flatMap((plan) => plan.columns))]
  const target = sql.join(columns.map((column) => sql.id(column)))
  const source = sql.join(columns.map((column) => sql.ref(`v.${column}`)))
  const values = JSON.stringify([...finalRows.values()].map((plan) => plan.after))
  const { rows } = await sql<TransactionRow>`
    update transactions as t set (${target}) = (${source})
    from jsonb_populate_recordset(null::transactions, ${values}::jsonb) as v
    where t.id = v.id
    returning t.*`.execute(trx)
  if (rows.length !== finalRows.size) throw new Error(`updated ${rows.length} of ${finalRows.size} transactions`)
  return new Map(rows.map((row) => [row.id, row]))
}

/**
 * Every plan's audit lines in one INSERT, in order; returns the id of each
 * plan's own line (its first), which its e-mails' keys take. Ids are only
 * needed when there are e-mails: then, for more than one line, they are
 * drawn from the sequence first, in order, so that each is known for
 * certain (RETURNING promises no order).
 */
async function insertAuditLines(trx: Kysely<Database>, plans: EventPlan[], needIds: boolean): Promise<Array<number | undefined>> {
  const lines = plans.flatMap((plan) => plan.audit)
  const toValues = (line: AuditLine) => ({
    transaction_id: line.transactionId,
    event: line.event,
    actor_kind: line.actorKind,
    actor_user_id: line.actorUserId,
    reason: line.reason,
    from_status: line.fromStatus,
    to_status: line.toStatus,
    created_at: line.at,
  })
  if (!needIds) {
    await trx.insertInto('transaction_events').values(lines.map(toValues)).execute()
    return plans.map(() => undefined)
  }
  if (lines.length === 1) {
    const { id } = await trx.insertInto('transaction_events').values(toValues(lines[0]!)).returning('id').executeTakeFirstOrThrow()
    return [id]
  }
  const { rows } = await sql<{ id: number }>`
    select nextval(pg_get_serial_sequence('transaction_events', 'id')) as id from generate_series(1, ${lines.length})`.execute(trx)
  const ids = rows.map((row) => Number(row.id)).sort((a, b) => a - b)
  await trx
    .insertInto('transaction_events')
    .values(lines.map((line, index) => ({ id: ids[index]!, ...toValues(line) })))
    .execute()
  const firstLineOf: Array<number | undefined> = []
  let index = 0
  for (const plan of plans) {
    firstLineOf.push(ids[index])
    index += plan.audit.length
  }
  return firstLineOf
}

/**
 * The provider calls in one INSERT. The same movement decided twice (a
 * refund of money that was never held, reported by both the webhook and the
 * browser) is sent once: its idempotency key is taken once, and a key
 * already in the outbox is skipped.
 */
async function insertOutboxRows(deps: WriteDeps, trx: Kysely<Database>, plans: EventPlan[]): Promise<void> {
  const byKey = new Map<string, PlannedOutboxRow>()
  for (const row of plans.flatMap((plan) => plan.outbox)) if (!byKey.has(row.idempotencyKey)) byKey.set(row.idempotencyKey, row)
  if (byKey.size === 0) return
  const inserted = await trx
    .insertInto('outbox')
    .values(
      [...byKey.values()].map((row) => ({
        id: row.id,
        transaction_id: row.transactionId,
        action: row.action,
        idempotency_key: row.idempotencyKey,
        payload: JSON.stringify(row.payload),
        created_at: row.at,
      })),
    )
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .returning('id')
    .execute()
  const sent = new Set(inserted.map((row) => row.id))
  // In the order they were decided.
  for (const row of byKey.values()) if (sent.has(row.id)) await deps.effects.dispatchOutbox(trx, row.id)
}

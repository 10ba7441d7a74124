import type { Actor, TransactionPolicy } from '@pactum/domain/transactions/kernel'
import { type TransactionEvent, type TransactionState, transition } from '@pactum/domain/transactions/transaction'
import { generateVerifyCode } from '@pactum/domain/verify-code'
import { type Insertable, type Kysely, sql } from 'kysely'
import type { Clock } from '../../../clock.ts'
import { type HitValues, hitCounter } from '../../../db/rate-limit-counts.ts'
import type { Database, TransactionEventsTable, TransactionsTable } from '../../../db/schema.ts'
import { statementTemplate } from '../../../db/statement-template.ts'
import { type IdempotencyClaim, recordCommittedWork } from '../../../idempotency/idempotency-claims.ts'
import { randomBytesFromBatch } from '../../../random-bytes.ts'
import { type CountedUse, refuseBeyondLimit, usageHit, useWithinLimit } from '../../../usage-limits.ts'
import type { EffectScheduler } from './effects.ts'
import { type EventContext, planEvent, refusalError } from './plan-event.ts'
import { fromState, toState, type TransactionRow } from './transaction-state.ts'
import { writePlans } from './write-plans.ts'
import { isPartnerClient, recordPartnerEvent } from '../../partner-webhooks/partner-events-repository.ts'

/**
 * The one path by which a transaction of either kind changes: the state
 * machine decides (plan-event.ts), and this module alone writes the
 * transactions, ledger, timer and outbox tables (through write-plans.ts),
 * all in the caller's database transaction. The
 * one other writer of the outbox is its dispatcher
 * (`modules/notifications/outbox-dispatcher.ts`), and only of the row's delivery columns
 * once it is committed.
 */
export interface TransactionDeps {
  db: Kysely<Database>
  clock: Clock
  policy: TransactionPolicy
  effects: EffectScheduler
  /** PUBLIC_URL, for the views partner events carry (their `verify_url`); the app sets it. */
  publicUrl?: string
  /**
   * The Idempotency-Key the request holds, if any: the change is written
   * onto it in the same database transaction, so a retry after a crash knows
   * that the work committed.
   */
  idempotency?: IdempotencyClaim | null
}

/**
 * Asks the state machine whether `event` would be taken now, changing
 * nothing; throws its refusal. For use cases that must know before they call
 * a provider (opening a payment) or check their input (repricing).
 */
export function assertAllowed(deps: TransactionDeps, row: TransactionRow, event: TransactionEvent, actor: Actor): void {
  const result = transition(toState(row), event, actor, deps.clock.now(), deps.policy)
  if (!result.ok) throw refusalError(result.code, row)
}

/**
 * Runs one event through the state machine on a row locked by the caller,
 * and writes everything it decides in the caller's database transaction:
 * the new state and timestamps, the audit event, balanced ledger entries,
 * timers, outbox rows for provider calls, and e-mail jobs. A refusal throws
 * the domain's code.
 */
export async function applyEvent(
  deps: TransactionDeps,
  trx: Kysely<Database>,
  row: TransactionRow,
  event: TransactionEvent,
  context: EventContext,
): Promise<TransactionRow> {
  const plan = planEvent(row, event, context, { now: deps.clock.now(), policy: deps.policy })
  if (deps.idempotency) await recordCommittedWork(trx, deps.idempotency, row.id)
  const [written] = await writePlans(deps, trx, [plan])
  return written!
}

/**
 * The same for many events at once (a group of due timers), on rows the
 * caller locked: each event is decided by the machine in turn, on the row
 * as the events before it left it, and all that they decide is written with
 * one statement of each kind (write-plans.ts). A refusal throws before
 * anything is written. Returns each event's row after it.
 */
export async function applyEvents(
  deps: TransactionDeps,
  trx: Kysely<Database>,
  items: Array<{ row: TransactionRow; event: TransactionEvent; context: EventContext }>,
): Promise<TransactionRow[]> {
  const now = deps.clock.now()
  const latest = new Map<string, TransactionRow>()
  const plans = items.map((item) => {
    const plan = planEvent(latest.get(item.row.id) ?? item.row, item.event, item.context, { now, policy: deps.policy })
    latest.set(item.row.id, plan.after)
    return plan
  })
  return writePlans(deps, trx, plans)
}

/**
 * Writes a transaction just created by its machine (`createOnlineTransaction`,
 * `createF2fTransaction`), with its audit event, in one database transaction.
 * When nothing else must commit with them (no guest invitation, no
 * Idempotency-Key to record), that transaction is a single statement, sent
 * without BEGIN and COMMIT: one round trip instead of four (issue 13),
 * which also counts the creator's use against its limit (`record.counted`).
 * Beyond the limit nothing is written but the hit, and 429 `rate_limited`
 * is thrown; in a database transaction the hit is counted first and a
 * refusal writes nothing at all.
 */
export async function insertTransaction(
  deps: TransactionDeps,
  state: TransactionState,
  record: NewTransactionRecord,
  /** Work that must commit with the new row (a guest's invitation). */
  afterInsert?: (trx: Kysely<Database>, row: TransactionRow) => Promise<void>,
): Promise<TransactionRow> {
  // A partner's transaction is announced in the same database transaction (recordPartnerEvent).
  if (!afterInsert && !deps.idempotency && !isPartnerClient(record.clientId))
    return insertWithCreateEvent(deps.db, state, record, record.counted)
  return deps.db.transaction().execute(async (trx) => {
    if (record.counted) await useWithinLimit(trx, deps.clock.now(), record.counted.limit, record.counted.subject)
    const row = await insertTransactionIn(deps, trx, state, record)
    if (afterInsert) await afterInsert(trx, row)
    return row
  })
}

export interface NewTransactionRecord {
  id: string
  /** Null for a partner's transaction: no creator among its parties. */
  creatorId: string | null
  clientId: string | null
  /** The listing it was bought from, if any. */
  listingId?: string | null
  /** The creator's use to count against its limit with the insert (insertTransaction only). */
  counted?: CountedUse
}

/** The same, in the caller's database transaction (a purchase from a listing holds the listing's lock meanwhile). */
export async function insertTransactionIn(
  deps: TransactionDeps,
  trx: Kysely<Database>,
  state: TransactionState,
  record: NewTransactionRecord,
): Promise<TransactionRow> {
  if (deps.idempotency) await recordCommittedWork(trx, deps.idempotency, record.id)
  const row = await insertWithCreateEvent(trx, state, record)
  if (await recordPartnerEvent(trx, row, { now: row.created, policy: deps.policy, publicUrl: deps.publicUrl ?? '' })) {
    await deps.effects.deliverWebhooks(trx, row.id)
  }
  return row
}

/**
 * The row and its `create` event in one statement (the event in a WITH
 * clause: its foreign key is checked when the statement ends, once the row
 * exists), so that both are written or neither, even outside a transaction.
 */
async function insertWithCreateEvent(
  db: Kysely<Database>,
  state: TransactionState,
  record: NewTransactionRecord,
  /** A use to count in the same statement (insertCounted). */
  counted?: CountedUse,
): Promise<TransactionRow> {
  const row = {
    ...fromState(state),
    id: record.id,
    creator_id: record.creatorId,
    client_id: record.clientId,
    listing_id: record.listingId ?? null,
    // The public verification page's code (decision 114): made once, here, and never changed.
    verify_code: generateVerifyCode(randomBytesFromBatch),
  }
  const event = {
    transaction_id: record.id,
    event: 'create',
    // A partner's transaction has no creator among its parties: the partner client created it (its client_id says which).
    actor_kind: record.creatorId ? state.creatorRole : 'partner',
    actor_user_id: record.creatorId,
    reason: null,
    from_status: row.status,
    to_status: row.status,
    created_at: row.created,
  }
  if (counted) return insertCounted(db, { event, row }, counted, row.created)
  const {
    rows: [inserted],
  } = await db.executeQuery(insertWithCreateEventStatement(db, { event, row }))
  if (!inserted) throw new Error('the insert returned no row')
  return inserted
}

/**
 * The same statement with the use's counter in front: its row and event are
 * inserted only if the count, this hit included, is within the limit. It
 * answers one row either way, with the counter's figures beside the new row
 * (null beyond the limit). Counting in its own statement first cost a
 * round trip and a commit: a third of a create's throughput (issue 36).
 */
async function insertCounted(
  db: Kysely<Database>,
  values: { event: Insertable<TransactionEventsTable>; row: Insertable<TransactionsTable> },
  use: CountedUse,
  now: Date,
): Promise<TransactionRow> {
  const {
    rows: [answer],
  } = await db.executeQuery(countedInsertStatement(db, { ...values, hit: usageHit(use, now), limit: { max: use.limit.max } }))
  if (!answer) throw new Error('the counted insert answered no row')
  const { usage_count, usage_window_ends_at, ...inserted } = answer
  refuseBeyondLimit(use.limit, { count: usage_count, windowEndsAt: new Date(usage_window_ends_at) }, now)
  if (inserted.id === null) throw new Error('the counted insert wrote no row within the limit')
  return inserted as TransactionRow
}

/** Built once per shape (db/statement-template.ts): building this insert of some 70 values was 8.5 % of a create. */
const insertWithCreateEventStatement = statementTemplate(
  (db, values: { event: Insertable<TransactionEventsTable>; row: Insertable<TransactionsTable> }) =>
    db
      .with('create_event', (db) => db.insertInto('transaction_events').values(values.event))
      .insertInto('transactions')
      .values(values.row)
      .returningAll(),
)

/** The columns a row sets (Kysely leaves an undefined value out of an insert, and so does this). */
function setColumns<Row extends object>(values: Row): Array<keyof Row & string> {
  return (Object.keys(values) as Array<keyof Row & string>).filter((column) => values[column] !== undefined)
}

/** The same row's values as a select list, for an insert that takes its row from a guard's select. */
function asSelectList<Row extends object>(values: Row) {
  return setColumns(values).map((column) => sql`${values[column]}`.as(column))
}

const countedInsertStatement = statementTemplate(
  (
    db,
    values: {
      event: Insertable<TransactionEventsTable>
      row: Insertable<TransactionsTable>
      hit: HitValues
      limit: { max: number }
    },
  ) =>
    db
      .with('usage', (db) => hitCounter(db, values.hit))
      .with('within_limit', (db) => db.selectFrom('usage').select('usage.count').where('usage.count', '<=', values.limit.max))
      .with('create_event', (db) =>
        db
          .insertInto('transaction_events')
          .columns(setColumns(values.event))
          .expression(db.selectFrom('within_limit').select(asSelectList(values.event))),
      )
      .with('created', (db) =>
        db
          .insertInto('transactions')
          .columns(setColumns(values.row))
          .expression(db.selectFrom('within_limit').select(asSelectList(values.row)))
          .returningAll(),
      )
      .selectFrom('usage')
      .leftJoin('created', (join) => join.onTrue())
      .selectAll('created')
      .select(['usage.count as usage_count', 'usage.window_ends_at as usage_window_ends_at']),
)

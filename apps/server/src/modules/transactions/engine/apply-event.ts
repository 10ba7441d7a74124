import { randomUUID } from 'node:crypto'
import type { Actor, Effect, RefusalCode, StatePosting, TransactionPolicy } from '@pactum/domain/transactions/kernel'
import { type TransactionEvent, type TransactionState, transition } from '@pactum/domain/transactions/transaction'
import { generateVerifyCode } from '@pactum/domain/verify-code'
import type { Insertable, Kysely } from 'kysely'
import type { Clock } from '../../../clock.ts'
import type { Database, TransactionEventsTable, TransactionsTable } from '../../../db/schema.ts'
import { statementTemplate } from '../../../db/statement-template.ts'
import { AppError } from '../../../errors.ts'
import { type IdempotencyClaim, recordCommittedWork } from '../../../idempotency/idempotency-claims.ts'
import { ledgerAccounts } from '../../../ledger/accounts.ts'
import { appendLedgerEntry } from '../../../ledger/append-entry.ts'
import { randomBytesFromBatch } from '../../../random-bytes.ts'
import type { NotificationJob } from '../../notifications/notifications-repository.ts'
import type { EffectScheduler } from './effects.ts'
import { fromState, toState, type TransactionRow } from './transaction-state.ts'
import { isPartnerClient, partnerEventOfChange, recordPartnerEvent } from '../../partner-webhooks/partner-events-repository.ts'

/**
 * The one path by which a transaction of either kind changes: the state
 * machine decides, and this module alone writes the transactions, ledger,
 * timer and outbox tables, all in the caller's database transaction. The
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

export interface EventContext {
  actor: Actor
  /** The user behind the event; null for timers and webhooks. */
  actorUserId: string | null
  /** Why (admin actions must say). */
  reason?: string
}

const refusalMessages: Partial<Record<RefusalCode, string>> = {
  not_buyer: 'Only the buyer can do this',
  not_seller: 'Only the seller can do this',
  not_admin: 'This needs an administrator',
  cannot_join_own_transaction: 'You created this transaction; share the code with the other party instead',
  empty_complaint_description: 'Describe the problem',
  remainder_too_low: 'The total must be at least the deposit plus 1.00',
  deposit_not_paid: 'The deposit has not been paid yet',
  deposit_already_accepted: 'The deposit has already been accepted',
  deposit_payment_in_review: 'The deposit payment is still being processed',
  price_already_set: 'The price has already been set',
  remainder_required: 'The remainder must be paid or skipped first',
  remainder_already_skipped: 'The remainder was skipped',
  remainder_already_paid: 'The remainder has already been paid',
  handover_already_confirmed: 'The handover has already been confirmed',
  not_found: 'This transaction has no such action',
  not_accepted: 'The seller has not joined this transaction yet',
  not_paid: 'The buyer has not paid yet',
  payment_in_progress: 'A payment is still being processed',
  tracking_not_added: 'The seller has not added the tracking details yet',
  not_complained: 'The buyer has not complained',
  deposit_not_accepted: 'The seller has not accepted the deposit yet',
  price_not_set: 'The seller has not set the total price yet',
  chargeback_open: "The buyer's bank is deciding a card dispute on this payment; the sale waits for its decision",
  fraud_warning_open: 'The card issuer warned of possible fraud on this payment; an administrator must clear it before a release',
  no_open_chargeback: 'This transaction has no open card dispute',
  no_fraud_warning: 'This transaction has no fraud warning to clear',
  no_chargeback_loss: 'Only a card dispute lost after the release can be recovered from the seller',
  recovery_too_high: 'That is more than the dispute cost or the seller was paid for the sale',
}

function refusalError(code: RefusalCode, row: TransactionRow): AppError {
  return new AppError(code, refusalMessages[code] ?? `Not possible while the transaction is ${row.status}`, {
    details: { status: row.status },
  })
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
  const now = deps.clock.now()
  const state = toState(row)
  const result = transition(state, event, context.actor, now, deps.policy)
  if (!result.ok) throw refusalError(result.code, row)
  if (deps.idempotency) await recordCommittedWork(trx, deps.idempotency, row.id)
  // The domain hands back the very same state object when nothing changed (a
  // late timer, a duplicate webhook): then there is nothing to write.
  if (result.effects.length === 0 && result.next === state) return row

  const updated =
    result.next === state
      ? row
      : await trx
          .updateTable('transactions')
          .set({ ...fromState(result.next), updated_at: now })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow()

  // Every change is audited, not only moves between states (a new price, a
  // payment opened). The audit event is written first: its id names this state change, and
  // the e-mails it causes take their idempotency keys from it.
  const audit = await trx
    .insertInto('transaction_events')
    .values({
      transaction_id: row.id,
      event: event.type,
      actor_kind: context.actor.kind,
      actor_user_id: context.actorUserId,
      reason: context.reason ?? null,
      from_status: row.status,
      to_status: updated.status,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()

  const notifications: NotificationJob[] = []
  for (const effect of result.effects) {
    if (effect.type === 'notify') {
      notifications.push({
        transactionId: row.id,
        template: effect.template,
        to: effect.to,
        // Names the e-mail: a retried job carries the same key and is not
        // sent again, while a later state change with the same template (a
        // second failed payment) has its own audit event and so its own key.
        // The domain never repeats a template and recipient within one step.
        key: `${row.id}:${audit.id}:${effect.template}:${effect.to}`,
        ...(effect.returned ? { returned: effect.returned } : {}),
        ...(effect.quotesReason && context.reason ? { reason: context.reason } : {}),
        ...(effect.quote !== undefined ? { quote: effect.quote } : {}),
      })
    } else if (effect.type === 'audit') {
      // The audit event above is the record; nothing else to write.
    } else if (effect.type === 'history') {
      // Beside the event's own line, after it: money that moved without moving the state, and why.
      await trx
        .insertInto('transaction_events')
        .values({
          transaction_id: row.id,
          event: effect.event,
          actor_kind: context.actor.kind,
          actor_user_id: context.actorUserId,
          reason: effect.reason,
          from_status: updated.status,
          to_status: updated.status,
          created_at: now,
        })
        .execute()
    } else {
      await persistEffect(deps, trx, updated, effect, event, now)
    }
  }
  if (notifications.length > 0) await deps.effects.notify(trx, notifications)
  // A partner hears of each change of status of a transaction made under its client, and of a case's or a card dispute's news.
  const partnerChange = updated.status === row.status ? partnerEventOfChange(event.type) : undefined
  if (
    (updated.status !== row.status || partnerChange) &&
    (await recordPartnerEvent(trx, updated, { now, policy: deps.policy, publicUrl: deps.publicUrl ?? '' }, partnerChange))
  ) {
    await deps.effects.deliverWebhooks(trx, row.id)
  }
  return updated
}

async function persistEffect(
  deps: TransactionDeps,
  trx: Kysely<Database>,
  row: TransactionRow,
  effect: Exclude<Effect, { type: 'notify' | 'history' | 'audit' }>,
  event: TransactionEvent,
  now: Date,
): Promise<void> {
  switch (effect.type) {
    case 'ledger':
      await appendLedgerEntry(trx, {
        transactionId: row.id,
        kind: effect.entry,
        part: effect.part ?? 'payment',
        reason: effect.reason ?? event.type,
        at: now,
        postings: effect.postings.map((posting) => ({ ...posting, account: qualify(posting, row) })),
      })
      return
    case 'schedule':
      await deps.effects.scheduleTimer(trx, { transactionId: row.id, kind: effect.timer, at: effect.at })
      return
    case 'cancel_timer':
      // Timers are not withdrawn: when one fires it re-runs the domain on the
      // locked row, and a timer whose moment has passed is a no-op there.
      return
    case 'provider': {
      const id = randomUUID()
      const inserted = await trx
        .insertInto('outbox')
        .values({
          id,
          transaction_id: row.id,
          action: effect.action,
          // Derived from (transaction, action): the provider sees one key however often we resend.
          idempotency_key: `${row.id}:${effect.idempotencyAction}`,
          payload: JSON.stringify({
            amount: effect.amount,
            currency: effect.currency,
            payment_intent_id: effect.paymentIntentId,
            seller_id: row.seller_id,
            buyer_id: row.buyer_id,
          }),
          created_at: now,
        })
        // The same movement decided twice (a refund of money that was never
        // held, reported by both the webhook and the browser) is sent once.
        .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
        .returning('id')
        .executeTakeFirst()
      if (inserted) await deps.effects.dispatchOutbox(trx, id)
      return
    }
  }
}

function qualify(posting: StatePosting, row: TransactionRow): string {
  const party = (id: string | null, role: string) => {
    if (!id) throw new Error(`ledger posting for the ${role} of ${row.id}, who is not set`)
    return id
  }
  switch (posting.account) {
    case 'escrow':
      return ledgerAccounts.escrow(row.id)
    case 'buyer_funding':
      return ledgerAccounts.buyerFunding(party(row.buyer_id, 'buyer'))
    case 'buyer_refund':
      return ledgerAccounts.buyerRefund(party(row.buyer_id, 'buyer'))
    case 'seller':
      return ledgerAccounts.seller(party(row.seller_id, 'seller'))
    case 'revenue':
      return ledgerAccounts.revenue
    case 'disputed':
      return ledgerAccounts.disputed(row.id)
    case 'chargeback_losses':
      return ledgerAccounts.chargebackLosses
    case 'dispute_fees':
      return ledgerAccounts.disputeFees
  }
}

/**
 * Writes a transaction just created by its machine (`createOnlineTransaction`,
 * `createF2fTransaction`), with its audit event, in one database transaction.
 * When nothing else must commit with them (no guest invitation, no
 * Idempotency-Key to record), that transaction is a single statement, sent
 * without BEGIN and COMMIT: one round trip instead of four (issue 13).
 */
export async function insertTransaction(
  deps: TransactionDeps,
  state: TransactionState,
  record: NewTransactionRecord,
  /** Work that must commit with the new row (a guest's invitation). */
  afterInsert?: (trx: Kysely<Database>, row: TransactionRow) => Promise<void>,
): Promise<TransactionRow> {
  // A partner's transaction is announced in the same database transaction (recordPartnerEvent).
  if (!afterInsert && !deps.idempotency && !isPartnerClient(record.clientId)) return insertWithCreateEvent(deps.db, state, record)
  return deps.db.transaction().execute(async (trx) => {
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
async function insertWithCreateEvent(db: Kysely<Database>, state: TransactionState, record: NewTransactionRecord): Promise<TransactionRow> {
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
  const {
    rows: [inserted],
  } = await db.executeQuery(insertWithCreateEventStatement(db, { event, row }))
  if (!inserted) throw new Error('the insert returned no row')
  return inserted
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

import { randomUUID } from 'node:crypto'
import type { Actor, RefusalCode, StatePosting, TimerKind, TransactionPolicy } from '@pactum/domain/transactions/kernel'
import { type TransactionEvent, transition } from '@pactum/domain/transactions/transaction'
import type { Selectable } from 'kysely'
import type { TransactionsTable } from '../../../db/schema.ts'
import { AppError } from '../../../errors.ts'
import { ledgerAccounts } from '../../../ledger/accounts.ts'
import type { LedgerEntry } from '../../../ledger/append-entry.ts'
import type { NotificationJob } from '../../notifications/notifications-repository.ts'
import { partnerEventOfChange } from '../../partner-webhooks/partner-events-repository.ts'
import { fromState, toState, type TransactionRow } from './transaction-state.ts'

export interface EventContext {
  actor: Actor
  /** The user behind the event; null for timers and webhooks. */
  actorUserId: string | null
  /** Why (admin actions must say). */
  reason?: string
}

/** One line of a transaction's history (`transaction_events`), its id given when the plan is written. */
export interface AuditLine {
  transactionId: string
  event: string
  actorKind: string
  actorUserId: string | null
  reason: string | null
  fromStatus: string
  toStatus: string
  at: Date
}

export interface PlannedOutboxRow {
  id: string
  transactionId: string
  action: string
  idempotencyKey: string
  payload: Record<string, unknown>
  at: Date
}

/**
 * Everything one accepted event changes, decided before anything is
 * written: the engine's writer (write-plans.ts) writes the plans of many
 * events with one statement of each kind. `changed` is false when the
 * machine kept the very same state and asked for nothing (a late timer, a
 * duplicate webhook): such a plan writes nothing.
 */
export interface EventPlan {
  before: TransactionRow
  /** The row as it will be once written (JSON columns as read back, not as sent). */
  after: TransactionRow
  stateChanged: boolean
  /** The columns the new state writes (fromState's, and updated_at). */
  columns: string[]
  changed: boolean
  /** The event's own line first, then the history lines its effects add after it. */
  audit: AuditLine[]
  ledger: Array<LedgerEntry & { id: string }>
  timers: Array<{ transactionId: string; kind: TimerKind; at: Date }>
  outbox: PlannedOutboxRow[]
  /** The e-mails, keyed once the event's own audit line has its id. */
  notifications: Array<Omit<NotificationJob, 'key'>>
  /** Whether a partner hears of this change, and of which kind when the status stayed. */
  partner: { announce: boolean; ofChange: ReturnType<typeof partnerEventOfChange> }
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

export function refusalError(code: RefusalCode, row: TransactionRow): AppError {
  return new AppError(code, refusalMessages[code] ?? `Not possible while the transaction is ${row.status}`, {
    details: { status: row.status },
  })
}

/**
 * Runs one event through the state machine and lays out what it decides,
 * writing nothing; throws the machine's refusal. Only the ids of new rows
 * (ledger entries, outbox rows) are made here.
 */
export function planEvent(
  row: TransactionRow,
  event: TransactionEvent,
  context: EventContext,
  options: { now: Date; policy: TransactionPolicy },
): EventPlan {
  const { now } = options
  const state = toState(row)
  const result = transition(state, event, context.actor, now, options.policy)
  if (!result.ok) throw refusalError(result.code, row)
  const stateChanged = result.next !== state
  const columns = stateChanged ? fromState(result.next) : undefined
  const after = columns ? rowOfState(row, columns, now) : row
  const plan: EventPlan = {
    before: row,
    after,
    stateChanged,
    columns: columns ? [...Object.keys(columns), 'updated_at'] : [],
    changed: stateChanged || result.effects.length > 0,
    // Every change is audited, not only moves between states (a new price, a payment opened).
    audit: [
      {
        transactionId: row.id,
        event: event.type,
        actorKind: context.actor.kind,
        actorUserId: context.actorUserId,
        reason: context.reason ?? null,
        fromStatus: row.status,
        toStatus: after.status,
        at: now,
      },
    ],
    ledger: [],
    timers: [],
    outbox: [],
    notifications: [],
    partner: { announce: false, ofChange: undefined },
  }
  for (const effect of result.effects) {
    switch (effect.type) {
      case 'notify':
        plan.notifications.push({
          transactionId: row.id,
          template: effect.template,
          to: effect.to,
          ...(effect.returned ? { returned: effect.returned } : {}),
          ...(effect.quotesReason && context.reason ? { reason: context.reason } : {}),
          ...(effect.quote !== undefined ? { quote: effect.quote } : {}),
        })
        break
      case 'audit':
        // The event's own line is the record; nothing else to write.
        break
      case 'history':
        // Beside the event's own line, after it: money that moved without moving the state, and why.
        plan.audit.push({
          transactionId: row.id,
          event: effect.event,
          actorKind: context.actor.kind,
          actorUserId: context.actorUserId,
          reason: effect.reason,
          fromStatus: after.status,
          toStatus: after.status,
          at: now,
        })
        break
      case 'ledger':
        plan.ledger.push({
          id: randomUUID(),
          transactionId: row.id,
          kind: effect.entry,
          part: effect.part ?? 'payment',
          reason: effect.reason ?? event.type,
          at: now,
          postings: effect.postings.map((posting) => ({ ...posting, account: qualify(posting, after) })),
        })
        break
      case 'schedule':
        plan.timers.push({ transactionId: row.id, kind: effect.timer, at: effect.at })
        break
      case 'cancel_timer':
        // Timers are not withdrawn: when one fires it re-runs the domain on the
        // locked row, and a timer whose moment has passed is a no-op there.
        break
      case 'provider':
        plan.outbox.push({
          id: randomUUID(),
          transactionId: row.id,
          action: effect.action,
          // Derived from (transaction, action): the provider sees one key however often we resend.
          idempotencyKey: `${row.id}:${effect.idempotencyAction}`,
          payload: {
            amount: effect.amount,
            currency: effect.currency,
            payment_intent_id: effect.paymentIntentId,
            seller_id: after.seller_id,
            buyer_id: after.buyer_id,
          },
          at: now,
        })
        break
    }
  }
  // A partner hears of each change of status of a transaction made under its client, and of a case's or a card dispute's news.
  const ofChange = after.status === row.status ? partnerEventOfChange(event.type) : undefined
  plan.partner = { announce: after.status !== row.status || ofChange !== undefined, ofChange }
  return plan
}

/**
 * The row a state is written as, with the JSON columns as they read back
 * (fromState sends them as text): the next event of the same transaction in
 * a batch is decided on it.
 */
function rowOfState(row: TransactionRow, written: ReturnType<typeof fromState>, now: Date): TransactionRow {
  const columns = written as Record<string, unknown>
  const parsed: Partial<Selectable<TransactionsTable>> = {
    settlement_offers: JSON.parse(columns.settlement_offers as string),
    chargeback: columns.chargeback === null ? null : JSON.parse(columns.chargeback as string),
    fraud_warning: columns.fraud_warning === null ? null : JSON.parse(columns.fraud_warning as string),
  }
  return { ...row, ...columns, ...parsed, updated_at: now } as TransactionRow
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

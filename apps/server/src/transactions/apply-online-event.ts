import { randomUUID } from 'node:crypto'
import {
  type Actor,
  type Effect,
  type OnlineEvent,
  type OnlinePolicy,
  type OnlinePosting,
  transition,
} from '@pactum/domain/online-transaction'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { AppError } from '../http/app-error.ts'
import { ledgerAccounts } from '../ledger/accounts.ts'
import { appendLedgerEntry } from '../ledger/append-entry.ts'
import type { EffectScheduler } from './effects.ts'
import { fromOnlineState, toOnlineState } from './online-state.ts'
import type { TransactionRow } from './transaction-view.ts'

export interface TransactionDeps {
  db: Kysely<Database>
  clock: Clock
  policy: OnlinePolicy
  effects: EffectScheduler
}

export interface EventContext {
  actor: Actor
  /** The user behind the event; null for timers and webhooks. */
  actorUserId: string | null
  /** Why (admin actions must say). */
  reason?: string
}

const refusalMessages: Partial<Record<string, string>> = {
  not_buyer: 'Only the buyer can do this',
  not_seller: 'Only the seller can do this',
  not_admin: 'This needs an administrator',
  cannot_join_own_transaction: 'You created this transaction; share the code with the other party instead',
  empty_complaint_description: 'Describe the problem',
}

/**
 * Runs one event through the state machine on a row locked by the caller,
 * and writes everything it decides in the caller's database transaction:
 * the new state and timestamps, the audit event, balanced ledger entries,
 * timers, outbox rows for provider calls, and e-mail jobs. A refusal throws
 * the domain's code.
 */
export async function applyOnlineEvent(
  deps: TransactionDeps,
  trx: Kysely<Database>,
  row: TransactionRow,
  event: OnlineEvent,
  context: EventContext,
): Promise<TransactionRow> {
  const now = deps.clock.now()
  const state = toOnlineState(row)
  const result = transition(state, event, context.actor, now, deps.policy)
  if (!result.ok) {
    throw new AppError(result.code, refusalMessages[result.code] ?? `Not possible while the transaction is ${row.status}`, {
      details: { status: row.status },
    })
  }
  // The domain hands back the very same state object when nothing changed (a
  // late timer, a duplicate webhook): then there is nothing to write.
  if (result.effects.length === 0 && result.next === state) return row

  const updated =
    result.next === state
      ? row
      : await trx
          .updateTable('transactions')
          .set({ ...fromOnlineState(result.next), updated_at: now })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow()

  if (updated.status === row.status && result.effects.length === 0) return updated

  // The audit event is written first: its id names this state change, and
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

  for (const effect of result.effects) await persistEffect(deps, trx, updated, effect, { event, eventId: audit.id, now })
  return updated
}

async function persistEffect(
  deps: TransactionDeps,
  trx: Kysely<Database>,
  row: TransactionRow,
  effect: Effect,
  cause: { event: OnlineEvent; eventId: number; now: Date },
): Promise<void> {
  const { event, now } = cause
  switch (effect.type) {
    case 'ledger':
      await appendLedgerEntry(trx, {
        transactionId: row.id,
        kind: effect.entry,
        reason: event.type,
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
      await trx
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
        .execute()
      await deps.effects.dispatchOutbox(trx, id)
      return
    }
    case 'notify':
      await deps.effects.notify(trx, {
        transactionId: row.id,
        template: effect.template,
        to: effect.to,
        // Names the e-mail: a retried job carries the same key and is not
        // sent again, while a later state change with the same template (a
        // second failed payment) has its own audit event and so its own key.
        // The domain never repeats a template and recipient within one step.
        key: `${row.id}:${cause.eventId}:${effect.template}:${effect.to}`,
      })
      return
  }
}

function qualify(posting: OnlinePosting, row: TransactionRow): string {
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
  }
}

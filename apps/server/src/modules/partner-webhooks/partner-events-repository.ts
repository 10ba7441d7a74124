import { type PartnerEventType, partnerEventTypeOfChange, partnerEventTypeOfStatus } from '@pactum/contracts/partner-webhooks'
import { verifyingClientIds } from '@pactum/domain/high-value'
import type { TransactionPolicy } from '@pactum/domain/transactions/kernel'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { uuidV7 } from '../../ids.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { toAnyTransactionView } from '../transactions/transaction-view.ts'

/** The event a change that kept the status makes, if a partner hears of it (a case's offer, a card dispute's news). */
export function partnerEventOfChange(eventType: string): PartnerEventType | undefined {
  return partnerEventTypeOfChange[eventType as keyof typeof partnerEventTypeOfChange]
}

/** A client of the database's, not one of the product's own apps (pactum-app, pactum-landing): it may listen. */
export function isPartnerClient(clientId: string | null): clientId is string {
  return clientId !== null && !(verifyingClientIds as readonly string[]).includes(clientId)
}

/**
 * A partner hears of every change of a transaction created under its
 * client: the engine calls this in the change's own database transaction
 * (apply-event.ts), so an event exists exactly when the change committed.
 * The event carries the transaction as the API shows it to someone who is
 * neither party (no join code, no actions), and its place in the
 * transaction's own sequence. Each enabled endpoint of the client whose
 * filter takes the type gets a pending delivery; the caller then enqueues
 * the delivery job (EffectScheduler.deliverWebhooks).
 *
 * Answers whether a delivery is pending (the job is needed).
 */
export async function recordPartnerEvent(
  trx: Kysely<Database>,
  row: TransactionRow,
  context: { now: Date; policy: TransactionPolicy; publicUrl: string },
  /** The type, when not the status's own (a change that kept the status). */
  ofChange?: PartnerEventType,
): Promise<boolean> {
  if (!isPartnerClient(row.client_id)) return false
  const type = ofChange ?? partnerEventTypeOfStatus[row.status as keyof typeof partnerEventTypeOfStatus]
  if (!type) throw new Error(`no partner event type for the status ${row.status}`)
  // The row is locked (or new) in this database transaction: no other change of it can take the same number.
  const last = await trx
    .selectFrom('partner_events')
    .select(sql<number>`coalesce(max(sequence), 0)`.as('sequence'))
    .where('transaction_id', '=', row.id)
    .executeTakeFirstOrThrow()
  const sequence = Number(last.sequence) + 1
  const id = `evt_${uuidV7(context.now).replaceAll('-', '')}`
  const transaction = toAnyTransactionView(row, { id: '' }, context)
  await trx
    .insertInto('partner_events')
    .values({
      id,
      client_id: row.client_id,
      transaction_id: row.id,
      sequence,
      type,
      payload: JSON.stringify(transaction),
      created_at: context.now,
    })
    .execute()
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'event_types'])
    .where('client_id', '=', row.client_id)
    .where('disabled_at', 'is', null)
    .execute()
  const listening = endpoints.filter((endpoint) => endpoint.event_types.length === 0 || endpoint.event_types.includes(type))
  if (listening.length === 0) return false
  await trx
    .insertInto('webhook_deliveries')
    .values(
      listening.map((endpoint) => ({
        event_id: id,
        endpoint_id: endpoint.id,
        transaction_id: row.id,
        sequence,
        status: 'pending' as const,
        next_attempt_at: context.now,
        created_at: context.now,
      })),
    )
    .execute()
  return true
}

/**
 * Forgets the events made before `before` (the feed's 30 days), with their
 * deliveries and attempts, in batches so that no one statement holds many
 * locks. Each transaction's last event stays whatever its age: the next
 * change numbers its event from it (recordPartnerEvent), so a sale that
 * rests for more than 30 days goes on with its own sequence, never from 1
 * again. The feed shows none of those kept rows (it reads 30 days).
 *
 * Answers how many events it deleted.
 */
export async function purgeOldPartnerEvents(db: Kysely<Database>, before: Date, batchSize = 1000): Promise<number> {
  let deleted = 0
  for (;;) {
    const batch = await db
      .deleteFrom('partner_events')
      .where(
        'id',
        'in',
        db
          .selectFrom('partner_events as old')
          .select('old.id')
          .where('old.created_at', '<', before)
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('partner_events as later')
                .select(sql`1`.as('one'))
                .whereRef('later.transaction_id', '=', 'old.transaction_id')
                .whereRef('later.sequence', '>', 'old.sequence'),
            ),
          )
          .limit(batchSize),
      )
      .executeTakeFirst()
    const count = Number(batch.numDeletedRows)
    deleted += count
    if (count < batchSize) return deleted
  }
}

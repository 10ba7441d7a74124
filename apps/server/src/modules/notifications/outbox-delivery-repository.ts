import type { Kysely, Selectable } from 'kysely'
import type { Database, OutboxTable } from '../../db/schema.ts'

/*
 * The outbox as its dispatcher (outbox-dispatcher.ts) reads and writes it.
 * `apply-event.ts` writes each outbox row, pending, in the state change's
 * own database transaction; the functions here write only the row's
 * delivery columns (`attempts`, `last_error`, `status`, `provider_reference`,
 * `sent_at`), which record the sending, never anything the state machines
 * decide. Add no function that writes another column.
 */

export type OutboxRow = Selectable<OutboxTable>

export async function findOutboxRow(db: Kysely<Database>, id: string): Promise<OutboxRow | undefined> {
  return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst()
}

/**
 * Delivery column `attempts`, counted before the provider is called: the
 * pending row with this attempt counted, in one statement (a read and a
 * write were two round trips per provider call; issue 36). Undefined when
 * there is no such row or it was sent already.
 */
export async function countDeliveryAttempt(db: Kysely<Database>, id: string): Promise<OutboxRow | undefined> {
  return db
    .updateTable('outbox')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', '<>', 'sent')
    .returningAll()
    .executeTakeFirst()
}

/** Delivery column `last_error`: why the last call failed. */
export async function recordDeliveryError(db: Kysely<Database>, id: string, error: string): Promise<void> {
  await db.updateTable('outbox').set({ last_error: error }).where('id', '=', id).execute()
}

/** Delivery columns `status`, `provider_reference`, `sent_at` and `last_error`: the provider accepted it. A row already sent is left as it is. */
export async function recordDelivered(
  db: Kysely<Database>,
  id: string,
  delivery: { providerReference: string; sentAt: Date },
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: 'sent', provider_reference: delivery.providerReference, sent_at: delivery.sentAt, last_error: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute()
}

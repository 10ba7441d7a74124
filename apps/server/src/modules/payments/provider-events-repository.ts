import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/** A verified provider event as it is recorded: its envelope and the payment event it reduced to, both as JSON. */
export interface ReceivedProviderEvent {
  provider: string
  eventId: string
  type: string
  created: Date
  payload: string
  domainEvent: string | null
}

/**
 * Records a provider event once per event id, processed at `processedAt`
 * (null: stored for a handler to come); undefined when it was recorded
 * before (a redelivery). A concurrent redelivery waits on the unique key
 * until the first commits.
 */
export async function insertProviderEvent(
  db: Kysely<Database>,
  event: ReceivedProviderEvent,
  at: { receivedAt: Date; processedAt: Date | null },
): Promise<{ id: string } | undefined> {
  return db
    .insertInto('provider_events')
    .values({
      provider: event.provider,
      event_id: event.eventId,
      type: event.type,
      created: event.created,
      payload: event.payload,
      domain_event: event.domainEvent,
      received_at: at.receivedAt,
      processed_at: at.processedAt,
    })
    .onConflict((conflict) => conflict.columns(['provider', 'event_id']).doNothing())
    .returning('id')
    .executeTakeFirst()
}

/** The transaction a payment (its deposit, remainder or only payment) was made for; null for one Pactum does not know. */
export async function transactionOfPayment(db: Kysely<Database>, paymentIntentId: string): Promise<string | null> {
  const row = await db
    .selectFrom('transactions')
    .select('id')
    .where((eb) => eb.or([eb('payment_intent_id', '=', paymentIntentId), eb('remainder_payment_intent_id', '=', paymentIntentId)]))
    .executeTakeFirst()
  return row?.id ?? null
}

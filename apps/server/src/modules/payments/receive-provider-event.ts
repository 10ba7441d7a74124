import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { EventHandlers } from '../../events/event-handlers.ts'
import type { PaymentEvent } from './payment-event.ts'
import { type ProviderEvent, reduceProviderEvent } from './reduce-provider-event.ts'

export type ReceiveOutcome = 'processed' | 'duplicate' | 'stored'

/**
 * Records a verified provider event once per event id and hands its
 * payment event to the registered handler in the same database
 * transaction: a redelivery finds the row and is only acknowledged, and a
 * handler that throws rolls the record back so the provider tries again.
 * A concurrent redelivery waits on the unique key until the first commits.
 * Without a registered handler the event is stored, unprocessed.
 */
export async function receiveProviderEvent(
  deps: { db: Kysely<Database>; clock: Clock; handlers: EventHandlers },
  provider: PaymentEvent['provider'],
  event: ProviderEvent,
): Promise<ReceiveOutcome> {
  const domainEvent = reduceProviderEvent(provider, event)
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now()
    const inserted = await trx
      .insertInto('provider_events')
      .values({
        provider,
        event_id: event.id,
        type: event.type,
        created: new Date(event.created * 1000),
        payload: JSON.stringify(event),
        domain_event: domainEvent ? JSON.stringify(domainEvent) : null,
        received_at: now,
      })
      .onConflict((conflict) => conflict.columns(['provider', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted) return 'duplicate'
    if (domainEvent && !deps.handlers.hasPaymentHandler) return 'stored'
    if (domainEvent) await deps.handlers.handlePaymentEvent(domainEvent, { db: trx })
    await trx.updateTable('provider_events').set({ processed_at: now }).where('id', '=', inserted.id).execute()
    return 'processed'
  })
}

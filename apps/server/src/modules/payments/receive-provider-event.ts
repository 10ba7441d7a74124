import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { EventHandlers } from '../../events/event-handlers.ts'
import type { PaymentEvent } from './payment-event.ts'
import { insertProviderEvent, markProviderEventProcessed, transactionOfPayment } from './provider-events-repository.ts'
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
    // A dispute or a fraud warning names the payment, not the transaction: the payment says which.
    if (domainEvent && domainEvent.transactionId === null && domainEvent.paymentIntentId) {
      domainEvent.transactionId = await transactionOfPayment(trx, domainEvent.paymentIntentId)
    }
    const inserted = await insertProviderEvent(
      trx,
      {
        provider,
        eventId: event.id,
        type: event.type,
        created: new Date(event.created * 1000),
        payload: JSON.stringify(event),
        domainEvent: domainEvent ? JSON.stringify(domainEvent) : null,
      },
      now,
    )
    if (!inserted) return 'duplicate'
    if (domainEvent && !deps.handlers.hasPaymentHandler) return 'stored'
    if (domainEvent) await deps.handlers.handlePaymentEvent(domainEvent, { db: trx })
    await markProviderEventProcessed(trx, inserted.id, now)
    return 'processed'
  })
}

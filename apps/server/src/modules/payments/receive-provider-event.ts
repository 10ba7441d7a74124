import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { EventHandlers } from '../../events/event-handlers.ts'
import type { PaymentEvent } from './payment-event.ts'
import { insertProviderEvent, markProviderEventProcessed, transactionOfPayment } from './provider-events-repository.ts'
import { type ProviderEvent, reduceProviderEvent } from './reduce-provider-event.ts'
import { reducePayoutEvent } from '../payouts/reduce-payout-event.ts'

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
  // A Connect event (with `account`) is news of a seller's account, never of a platform payment.
  const payoutEvent = reducePayoutEvent(provider, event)
  const paymentEvent = payoutEvent || event.account ? null : reduceProviderEvent(provider, event)
  const domainEvent = payoutEvent ?? paymentEvent
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now()
    // A dispute or a fraud warning names the payment, not the transaction: the payment says which.
    if (paymentEvent && paymentEvent.transactionId === null && paymentEvent.paymentIntentId) {
      paymentEvent.transactionId = await transactionOfPayment(trx, paymentEvent.paymentIntentId)
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
    if (payoutEvent) {
      if (!deps.handlers.hasPayoutHandler) return 'stored'
      await deps.handlers.handlePayoutEvent(payoutEvent, { db: trx })
    } else if (paymentEvent) {
      if (!deps.handlers.hasPaymentHandler) return 'stored'
      await deps.handlers.handlePaymentEvent(paymentEvent, { db: trx })
    }
    await markProviderEventProcessed(trx, inserted.id, now)
    return 'processed'
  })
}

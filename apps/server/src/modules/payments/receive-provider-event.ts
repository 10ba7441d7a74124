import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { EventHandlers } from '../../events/event-handlers.ts'
import type { PaymentEvent } from './payment-event.ts'
import { insertProviderEvent, transactionOfPayment } from './provider-events-repository.ts'
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
    const handled = payoutEvent ? deps.handlers.hasPayoutHandler : paymentEvent ? deps.handlers.hasPaymentHandler : true
    // Recorded as processed when a handler takes it: the handler's writes commit with the record or roll it
    // back with them, so a separate mark after it was a round trip per event with nothing to decide (issue 36).
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
      { receivedAt: now, processedAt: handled ? now : null },
    )
    if (!inserted) return 'duplicate'
    if (!handled) return 'stored'
    if (payoutEvent) await deps.handlers.handlePayoutEvent(payoutEvent, { db: trx })
    else if (paymentEvent) await deps.handlers.handlePaymentEvent(paymentEvent, { db: trx })
    return 'processed'
  })
}

import type { Transaction } from 'kysely'
import type { CarrierEvent } from '../adapters/carrier-tracker/port.ts'
import type { Database } from '../db/schema.ts'
import type { PaymentEvent } from '../modules/payments/payment-event.ts'
import type { PayoutEvent } from '../modules/payouts/payout-event.ts'

/**
 * A handler runs inside the database transaction that records the event as
 * received: whatever it writes commits together with that record, and a
 * throw rolls both back, so the provider (or the job) delivers it again.
 */
export interface EventContext {
  db: Transaction<Database>
}

export type PaymentEventHandler = (event: PaymentEvent, context: EventContext) => Promise<void>
export type CarrierEventHandler = (event: CarrierEvent, context: EventContext) => Promise<void>
export type PayoutEventHandler = (event: PayoutEvent, context: EventContext) => Promise<void>

/**
 * Where provider news reaches the transaction services. Events come in any
 * order and, across handlers' crashes, possibly more than once; a handler
 * compares `occurredAt` and the transaction's state and ignores what no
 * longer applies.
 */
export class EventHandlers {
  readonly #payment: PaymentEventHandler[] = []
  readonly #carrier: CarrierEventHandler[] = []
  readonly #payout: PayoutEventHandler[] = []

  registerPaymentEventHandler(handler: PaymentEventHandler): void {
    this.#payment.push(handler)
  }

  registerCarrierEventHandler(handler: CarrierEventHandler): void {
    this.#carrier.push(handler)
  }

  /** A seller's payout to their bank (Connect `payout.*` events): modules/payouts. */
  registerPayoutEventHandler(handler: PayoutEventHandler): void {
    this.#payout.push(handler)
  }

  get hasPayoutHandler(): boolean {
    return this.#payout.length > 0
  }

  async handlePayoutEvent(event: PayoutEvent, context: EventContext): Promise<void> {
    for (const handler of this.#payout) await handler(event, context)
  }

  get hasPaymentHandler(): boolean {
    return this.#payment.length > 0
  }

  get hasCarrierHandler(): boolean {
    return this.#carrier.length > 0
  }

  async handlePaymentEvent(event: PaymentEvent, context: EventContext): Promise<void> {
    for (const handler of this.#payment) await handler(event, context)
  }

  async handleCarrierEvent(event: CarrierEvent, context: EventContext): Promise<void> {
    for (const handler of this.#carrier) await handler(event, context)
  }
}

import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { BalanceMovement } from './payments-port.ts'

/**
 * The sandbox's balance, as Stripe's balance transactions list it: a
 * payment adds when it succeeds, a refund takes when it is made (and a
 * failed one gives back, Stripe's `refund_failure`), a transfer takes.
 * The sandbox charges no fees and converts no currency: its balance is
 * in each payment's own currency.
 */
export async function sandboxBalanceMovements(db: Kysely<Database>, range: { from: Date; to: Date }): Promise<BalanceMovement[]> {
  const [payments, refunds, failedRefunds, transfers] = await Promise.all([
    db
      .selectFrom('sandbox_payment_intents')
      .select(['id', 'amount', 'currency', 'payment_method', 'succeeded_at'])
      .where('succeeded_at', '>=', range.from)
      .where('succeeded_at', '<', range.to)
      .execute(),
    db.selectFrom('sandbox_refunds').selectAll().where('created_at', '>=', range.from).where('created_at', '<', range.to).execute(),
    db
      .selectFrom('sandbox_refunds')
      .selectAll()
      .where('status', '=', 'failed')
      .where('updated_at', '>=', range.from)
      .where('updated_at', '<', range.to)
      .execute(),
    db.selectFrom('sandbox_transfers').selectAll().where('created_at', '>=', range.from).where('created_at', '<', range.to).execute(),
  ])
  const movement = (fields: Omit<BalanceMovement, 'fee' | 'net'>): BalanceMovement => ({ ...fields, fee: 0, net: fields.amount })
  const movements = [
    ...payments.map((payment) =>
      movement({
        id: `txn_${payment.id}`,
        kind: 'charge',
        providerType: payment.payment_method === 'card' ? 'charge' : 'payment',
        objectId: payment.id,
        sourceId: payment.id,
        amount: Number(payment.amount),
        currency: payment.currency,
        created: payment.succeeded_at as Date,
      }),
    ),
    ...refunds.map((refund) =>
      movement({
        id: `txn_${refund.id}`,
        kind: 'refund',
        providerType: 'refund',
        objectId: refund.id,
        sourceId: refund.id,
        amount: -Number(refund.amount),
        currency: refund.currency,
        created: refund.created_at,
      }),
    ),
    ...failedRefunds.map((refund) =>
      movement({
        id: `txn_${refund.id}_failure`,
        kind: 'refund',
        providerType: 'refund_failure',
        objectId: refund.id,
        sourceId: refund.id,
        amount: Number(refund.amount),
        currency: refund.currency,
        created: refund.updated_at,
      }),
    ),
    ...transfers.map((transfer) =>
      movement({
        id: `txn_${transfer.id}`,
        kind: 'transfer',
        providerType: 'transfer',
        objectId: transfer.id,
        sourceId: transfer.id,
        amount: -Number(transfer.amount),
        currency: transfer.currency,
        created: transfer.created_at,
      }),
    ),
  ]
  return movements.sort((a, b) => a.created.getTime() - b.created.getTime() || a.id.localeCompare(b.id))
}

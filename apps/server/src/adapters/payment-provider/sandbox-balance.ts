import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { BalanceMovement } from './payments-port.ts'

/**
 * The sandbox's balance, as Stripe's balance transactions list it: a
 * payment adds when it succeeds, a refund takes when it is made (and a
 * failed one gives back, Stripe's `refund_failure`), a transfer takes.
 * A dispute takes its amount and its fee when it opens, and gives both back
 * if won; a transfer reversal brings money back from a seller. The
 * sandbox charges no other fees and converts no currency: its balance is
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
  const [disputes, reversals] = await Promise.all([
    db.selectFrom('sandbox_disputes').selectAll().where('created_at', '<', range.to).where('updated_at', '>=', range.from).execute(),
    db
      .selectFrom('sandbox_transfer_reversals')
      .innerJoin('sandbox_transfers', 'sandbox_transfers.id', 'sandbox_transfer_reversals.transfer_id')
      .select([
        'sandbox_transfer_reversals.id',
        'sandbox_transfer_reversals.amount',
        'sandbox_transfers.currency',
        'sandbox_transfer_reversals.created_at',
      ])
      .where('sandbox_transfer_reversals.created_at', '>=', range.from)
      .where('sandbox_transfer_reversals.created_at', '<', range.to)
      .execute(),
  ])
  const inRange = (at: Date) => at >= range.from && at < range.to
  for (const dispute of disputes) {
    const amount = Number(dispute.amount)
    const fee = Number(dispute.fee_amount)
    const base = {
      kind: 'dispute' as const,
      providerType: 'adjustment',
      objectId: dispute.id,
      sourceId: dispute.id,
      currency: dispute.currency,
    }
    if (inRange(dispute.created_at)) {
      movements.push({ ...base, id: `txn_${dispute.id}_withdrawn`, amount: -amount, fee, net: -amount - fee, created: dispute.created_at })
    }
    if (dispute.status === 'won' && inRange(dispute.updated_at)) {
      movements.push({ ...base, id: `txn_${dispute.id}_reinstated`, amount, fee: -fee, net: amount + fee, created: dispute.updated_at })
    }
  }
  for (const reversal of reversals) {
    movements.push({
      ...movement({
        id: `txn_${reversal.id}`,
        kind: 'transfer_reversal',
        providerType: 'transfer_refund',
        objectId: reversal.id,
        sourceId: reversal.id,
        amount: Number(reversal.amount),
        currency: reversal.currency,
        created: reversal.created_at,
      }),
    })
  }
  return movements.sort((a, b) => a.created.getTime() - b.created.getTime() || a.id.localeCompare(b.id))
}

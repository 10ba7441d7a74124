import type { Transaction } from '@pactum/contracts/transactions'
import type { Selectable } from 'kysely'
import type { TransactionsTable } from '../db/schema.ts'

export type TransactionRow = Selectable<TransactionsTable>

const iso = (value: Date | null) => (value ? value.toISOString() : null)

export function roleOf(row: TransactionRow, userId: string): 'buyer' | 'seller' | null {
  if (row.buyer_id === userId) return 'buyer'
  if (row.seller_id === userId) return 'seller'
  return null
}

/**
 * The API's view of a transaction for one viewer: their role, and the join
 * code only for the creator while the transaction can still be joined.
 */
export function toTransactionView(row: TransactionRow, viewerId: string): Transaction {
  return {
    id: row.id,
    type: row.type as Transaction['type'],
    status: row.status as Transaction['status'],
    role: roleOf(row, viewerId),
    price: row.price,
    charge: row.charge,
    charge_seller: row.charge_seller,
    charge_buyer_client: row.charge_buyer_client,
    charge_seller_client: row.charge_seller_client,
    charge_calculator_version: row.charge_calculator_version,
    quantity: row.quantity,
    currency: row.currency,
    payment_method: row.payment_method as Transaction['payment_method'],
    description: row.description,
    join_code: row.creator_id === viewerId && row.status === 'created' ? row.join_code : null,
    buyer_id: row.buyer_id,
    seller_id: row.seller_id,
    client_id: row.client_id,
    high_value: row.high_value,
    is_payment_in_progress: row.is_payment_in_progress,
    order_issue: row.order_issue_description ? { description: row.order_issue_description } : null,
    tracking:
      row.tracking_carrier && row.tracking_code ? { carrier: row.tracking_carrier, tracking_code: row.tracking_code } : null,
    complaint: row.complaint_description ? { description: row.complaint_description } : null,
    complaint_period_deadline: iso(row.complaint_period_deadline),
    tracking_deadline: iso(row.tracking_deadline),
    amount_released: row.amount_released,
    amount_refunded: row.amount_refunded,
    created: row.created.toISOString(),
    joined: iso(row.joined),
    paid: iso(row.paid),
    tracked: iso(row.tracked),
    delivered: iso(row.delivered),
    complained: iso(row.complained),
    complaint_period_ended: iso(row.complaint_period_ended),
    funds_released: iso(row.funds_released),
    cancelled: iso(row.cancelled),
    rejected: iso(row.rejected),
    cancelled_with_payment: iso(row.cancelled_with_payment),
    payment_refunded: iso(row.payment_refunded),
  }
}

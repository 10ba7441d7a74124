import type { Selectable } from 'kysely'
import type { SandboxPaymentIntentsTable, SandboxRefundsTable } from '../../db/schema.ts'
import type { PaymentIntent, PaymentIntentStatus, PaymentMethodType, Refund } from './payments-port.ts'
import { PaymentProviderError } from './provider-error.ts'
import type { SandboxDb } from './sandbox-kernel.ts'
import { stripeMethodNames, toPaymentError } from './stripe-mapping.ts'

/** The sandbox's payment rows in the port's shape, and as Stripe's API and webhooks show them. */

export type IntentRow = Selectable<SandboxPaymentIntentsTable>
type RefundRow = Selectable<SandboxRefundsTable>

export async function lockIntent(trx: SandboxDb, id: string): Promise<IntentRow> {
  const row = await trx.selectFrom('sandbox_payment_intents').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
  if (!row) throw new PaymentProviderError('not_found', `No such payment intent: ${id}`)
  return row
}

export function toPaymentIntent(row: IntentRow): PaymentIntent {
  const nextAction = row.next_action as { url?: string; return_url?: string } | null
  return {
    id: row.id,
    clientSecret: row.client_secret,
    status: row.status as PaymentIntentStatus,
    amount: row.amount,
    currency: row.currency,
    paymentMethod: row.payment_method as PaymentMethodType,
    transactionId: row.transaction_id,
    metadata: row.metadata,
    amountRefunded: row.amount_refunded,
    lastPaymentError: toPaymentError(row.last_payment_error),
    nextAction:
      nextAction?.url && nextAction.return_url ? { type: 'redirect_to_url', url: nextAction.url, returnUrl: nextAction.return_url } : null,
  }
}

export function toRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    paymentIntentId: row.payment_intent_id,
    amount: row.amount,
    currency: row.currency,
    status: row.status as Refund['status'],
    failureReason: row.failure_reason,
  }
}

/** The payment intent as Stripe's API and webhooks show it. */
export function intentObject(row: IntentRow): Record<string, unknown> {
  const nextAction = row.next_action as { url?: string; return_url?: string } | null
  return {
    id: row.id,
    object: 'payment_intent',
    amount: row.amount,
    amount_received: row.status === 'succeeded' ? row.amount : 0,
    currency: row.currency,
    status: row.status,
    payment_method_types: [stripeMethodNames[row.payment_method as PaymentMethodType]],
    metadata: row.metadata,
    last_payment_error: row.last_payment_error,
    next_action: nextAction
      ? { type: 'redirect_to_url', redirect_to_url: { url: nextAction.url, return_url: nextAction.return_url } }
      : null,
    created: Math.floor(row.created_at.getTime() / 1000),
  }
}

export function refundObject(row: RefundRow, intent: IntentRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'refund',
    amount: row.amount,
    currency: row.currency,
    payment_intent: row.payment_intent_id,
    status: row.status,
    failure_reason: row.failure_reason,
    metadata: { transaction_id: intent.transaction_id },
    created: Math.floor(row.created_at.getTime() / 1000),
  }
}

export function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new PaymentProviderError('invalid_request', 'The amount must be a positive integer in minor units')
  }
}

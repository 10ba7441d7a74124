import type { Kysely } from 'kysely'
import type { ConnectedAccounts } from '../../adapters/payment-provider/connected-accounts-port.ts'
import type { Payments, Refund } from '../../adapters/payment-provider/payments-port.ts'
import { ProviderRateLimitedError } from '../../adapters/payment-provider/provider-error.ts'
import type { ProviderEndpoint, ProviderPace } from '../../adapters/payment-provider/provider-pace.ts'
import { crashPoint } from '../../crash-points.ts'
import type { Database } from '../../db/schema.ts'
import { noTracing, type Tracing } from '../../tracing/tracing.ts'
import { ensureConnectedAccount } from '../profile/payout-account.ts'
import { countDeliveryAttempt, recordDelivered, recordDeliveryError } from './outbox-delivery-repository.ts'

/*
 * The outbox's dispatcher. `apply-event.ts` writes each outbox row, pending,
 * in the state change's own database transaction; from then on this module
 * alone writes the row, through outbox-delivery-repository.ts: its delivery
 * columns (`attempts`, `last_error`, `status`, `provider_reference`,
 * `sent_at`) record the sending, never anything the state machines decide.
 */

/** What the provider answered a row it accepted: a refund says whether it is settled already (a card refund is, at once). */
export type OutboxSent =
  { action: 'refund'; transactionId: string; refund: Refund } | { action: 'transfer' | 'reverse_transfer'; transactionId: string }

/** The provider's endpoint an outbox row's action calls (as sendOutboxRow reads it), paced on its own line (provider-pace.ts). */
function endpointOf(action: string): ProviderEndpoint {
  if (action === 'refund') return 'refunds'
  if (action === 'reverse_transfer') return 'transfer_reversals'
  return 'transfers'
}

/**
 * Sends one outbox row to the provider, at the provider's pace (`pace`,
 * shared by every process: provider-pace.ts). No database transaction is held
 * across the call: the idempotency key makes a resend after a crash (or a
 * concurrent duplicate job) return the first result instead of moving money
 * twice, and the row is marked sent only after the provider accepted it.
 * Answers what was sent, or null when the row was sent already.
 */
export async function sendOutboxRow(
  db: Kysely<Database>,
  provider: {
    payments: Payments
    connectedAccounts: ConnectedAccounts
    pace?: ProviderPace
    failed?: (kind: string) => void
    /** A span around each provider call (tracing/tracing.ts); none when left out. */
    tracing?: Tracing
  },
  outboxId: string,
  now: Date,
): Promise<OutboxSent | null> {
  const row = await countDeliveryAttempt(db, outboxId)
  if (!row) return null
  const payload = row.payload as { amount: number; currency: string; payment_intent_id: string | null; seller_id: string | null }
  crashPoint('outbox.before-provider-call')
  let outcome: { reference: string; sent: OutboxSent }
  try {
    await provider.pace?.take(endpointOf(row.action))
    // The span is the provider's call alone: the wait for the pace is not the provider's time.
    outcome = await (provider.tracing ?? noTracing).span(
      `outbox ${row.action}`,
      { 'pactum.outbox.id': row.id, 'pactum.outbox.action': row.action, 'pactum.transaction.id': row.transaction_id },
      async (): Promise<{ reference: string; sent: OutboxSent }> => {
        if (row.action === 'refund') {
          if (!payload.payment_intent_id) throw new Error(`refund ${row.id} has no payment to refund`)
          const refund = await provider.payments.refund({
            paymentIntentId: payload.payment_intent_id,
            amount: payload.amount,
            idempotencyKey: row.idempotency_key,
          })
          return { reference: refund.id, sent: { action: 'refund', transactionId: row.transaction_id, refund } }
        }
        if (row.action === 'reverse_transfer') {
          // After a card dispute lost on money already released (docs/decisions/109).
          const reversal = await provider.payments.reverseTransfer({
            transactionId: row.transaction_id,
            amount: payload.amount,
            currency: payload.currency,
            idempotencyKey: row.idempotency_key,
          })
          return { reference: reversal.id, sent: { action: 'reverse_transfer', transactionId: row.transaction_id } }
        }
        if (!payload.seller_id) throw new Error(`transfer ${row.id} has no seller`)
        // The seller's account is created on first need (or was, with their payout details).
        const account = await ensureConnectedAccount({ db, connectedAccounts: provider.connectedAccounts }, payload.seller_id)
        const transfer = await provider.payments.transfer({
          amount: payload.amount,
          currency: payload.currency,
          destinationAccount: account.id,
          transactionId: row.transaction_id,
          idempotencyKey: row.idempotency_key,
        })
        return { reference: transfer.id, sent: { action: 'transfer', transactionId: row.transaction_id } }
      },
    )
  } catch (error) {
    if (error instanceof ProviderRateLimitedError) provider.pace?.slowDown()
    provider.failed?.(row.action)
    await recordDeliveryError(db, row.id, (error as Error).message.slice(0, 500))
    throw error
  }
  crashPoint('outbox.after-provider-call')
  await recordDelivered(db, row.id, { providerReference: outcome.reference, sentAt: now })
  return outcome.sent
}

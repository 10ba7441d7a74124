import type { Selectable } from 'kysely'
import type { SandboxDisputesTable } from '../../db/schema.ts'
import type { Dispute, DisputeEvidence, DisputeStatus } from './payments-port.ts'
import { PaymentProviderError } from './provider-error.ts'
import { newSandboxId, type SandboxDb, type SandboxKernel } from './sandbox-kernel.ts'
import { lockIntent } from './sandbox-payment-objects.ts'

/**
 * The sandbox's card disputes, as Stripe's (docs.stripe.com/disputes and the
 * Dispute object of the API reference): a dispute opens `needs_response`
 * with the disputed amount and a fee taken from the balance
 * (`charge.dispute.created`, then `charge.dispute.funds_withdrawn`, whose
 * object lists both in `balance_transactions`); submitted evidence makes it
 * `under_review` (`charge.dispute.updated`); it closes `won` (the amount
 * given back: `charge.dispute.funds_reinstated`, then `charge.dispute.closed`)
 * or `lost` (`charge.dispute.closed`), and accepting it (Stripe's `close`)
 * loses it at once. The dispute's own metadata is empty: it names its
 * charge and payment intent, not the transaction.
 *
 * A dispute opens on its own `SANDBOX_DISPUTE_DELAY_SECONDS` after a payment
 * with the test card 4000000000000259 (Stripe's "fraudulent" dispute card),
 * or when an admin opens one from the console; an admin decides it there
 * too, the part the card networks play. The card 4000000000005423 brings an
 * early fraud warning (`radar.early_fraud_warning.created`) instead.
 */
export const disputeQueue = 'sandbox-open-dispute'

/** Stripe's dispute fee is set per country (€20 in the EEA); the sandbox charges 1500 minor units of the payment's currency. */
export const sandboxDisputeFee = 1_500

/** Stripe gives the seller about three weeks to respond; the sandbox the same. */
const responseWindowSeconds = 21 * 86_400

type DisputeRow = Selectable<SandboxDisputesTable>

export type DelayedCardNews = 'dispute' | 'early_fraud_warning'

export class SandboxDisputes {
  readonly #kernel: SandboxKernel
  readonly #delaySeconds: number

  constructor(kernel: SandboxKernel, options: { disputeDelaySeconds: number }) {
    this.#kernel = kernel
    this.#delaySeconds = options.disputeDelaySeconds
  }

  async createQueues(): Promise<void> {
    await this.#kernel.jobs.createQueue(disputeQueue, { retryLimit: 10, retryDelay: 5 })
  }

  async startWorkers(): Promise<void> {
    await this.#kernel.jobs.work<{ paymentIntentId: string; news: DelayedCardNews }>(disputeQueue, async (data) => {
      if (data.news === 'dispute') await this.open(data.paymentIntentId, { reason: 'fraudulent' })
      else await this.#kernel.transaction((trx) => this.#earlyFraudWarning(trx, data.paymentIntentId))
    })
  }

  /** After a test card's payment succeeded: its dispute or warning comes later, as a bank's would. */
  async schedule(trx: SandboxDb, paymentIntentId: string, news: DelayedCardNews): Promise<void> {
    await this.#kernel.jobs.send(disputeQueue, { paymentIntentId, news }, { db: trx, startAfter: this.#delaySeconds })
  }

  /** Opens a dispute on a succeeded payment, for all of it unless `amount` says less. */
  async open(paymentIntentId: string, input: { reason: string; amount?: number }): Promise<Dispute> {
    return this.#kernel.transaction(async (trx) => {
      const intent = await lockIntent(trx, paymentIntentId)
      if (intent.status !== 'succeeded') throw new PaymentProviderError('invalid_state', `A ${intent.status} payment cannot be disputed`)
      const open = await trx
        .selectFrom('sandbox_disputes')
        .select('id')
        .where('payment_intent_id', '=', intent.id)
        .where('status', 'in', ['needs_response', 'under_review'])
        .executeTakeFirst()
      if (open) throw new PaymentProviderError('invalid_state', `Payment ${intent.id} already has an open dispute (${open.id})`)
      const amount = input.amount ?? intent.amount
      if (!Number.isSafeInteger(amount) || amount <= 0 || amount > intent.amount) {
        throw new PaymentProviderError('invalid_request', 'The disputed amount must be between 1 and the payment', { param: 'amount' })
      }
      const now = this.#kernel.now()
      const row = await trx
        .insertInto('sandbox_disputes')
        .values({
          id: newSandboxId('du'),
          payment_intent_id: intent.id,
          amount,
          currency: intent.currency,
          status: 'needs_response',
          reason: input.reason,
          evidence: null,
          evidence_due_by: new Date(now.getTime() + responseWindowSeconds * 1000),
          fee_amount: sandboxDisputeFee,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      await this.#kernel.emit(trx, 'charge.dispute.created', disputeObject(row))
      await this.#kernel.emit(trx, 'charge.dispute.funds_withdrawn', disputeObject(row))
      return toDispute(row)
    })
  }

  async retrieve(id: string): Promise<Dispute> {
    const row = await this.#kernel.db.selectFrom('sandbox_disputes').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw new PaymentProviderError('not_found', `No such dispute: ${id}`)
    return toDispute(row)
  }

  async submitEvidence(id: string, evidence: DisputeEvidence): Promise<Dispute> {
    return this.#change(id, async (trx, row) => {
      if (row.status !== 'needs_response') throw new PaymentProviderError('invalid_state', `A ${row.status} dispute takes no evidence`)
      const stored = {
        product_description: evidence.productDescription,
        uncategorized_text: evidence.uncategorizedText,
        shipping_carrier: evidence.shippingCarrier,
        shipping_tracking_number: evidence.shippingTrackingNumber,
        uncategorized_file: evidence.caseFile ? newSandboxId('file') : null,
      }
      const updated = await this.#update(trx, row.id, { status: 'under_review', evidence: JSON.stringify(stored) })
      await this.#kernel.emit(trx, 'charge.dispute.updated', disputeObject(updated))
      return updated
    })
  }

  /** Stripe's `POST /v1/disputes/{id}/close`: the platform gives the dispute up. */
  accept(id: string): Promise<Dispute> {
    return this.decide(id, 'lost')
  }

  /** The bank's decision (the admin's sandbox action): won gives the amount and the fee back. */
  async decide(id: string, outcome: 'won' | 'lost'): Promise<Dispute> {
    return this.#change(id, async (trx, row) => {
      if (row.status !== 'needs_response' && row.status !== 'under_review') {
        throw new PaymentProviderError('invalid_state', `The dispute is already ${row.status}`)
      }
      const updated = await this.#update(trx, row.id, { status: outcome, fee_returned: outcome === 'won' })
      if (outcome === 'won') await this.#kernel.emit(trx, 'charge.dispute.funds_reinstated', disputeObject(updated))
      await this.#kernel.emit(trx, 'charge.dispute.closed', disputeObject(updated))
      return updated
    })
  }

  async #earlyFraudWarning(trx: SandboxDb, paymentIntentId: string): Promise<void> {
    const intent = await lockIntent(trx, paymentIntentId)
    const now = this.#kernel.now()
    await this.#kernel.emit(trx, 'radar.early_fraud_warning.created', {
      id: newSandboxId('issfr'),
      object: 'radar.early_fraud_warning',
      actionable: true,
      charge: chargeIdOf(intent.id),
      created: Math.floor(now.getTime() / 1000),
      fraud_type: 'made_with_stolen_card',
      livemode: false,
      payment_intent: intent.id,
    })
  }

  async #change(id: string, work: (trx: SandboxDb, row: DisputeRow) => Promise<DisputeRow>): Promise<Dispute> {
    return this.#kernel.transaction(async (trx) => {
      const row = await trx.selectFrom('sandbox_disputes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
      if (!row) throw new PaymentProviderError('not_found', `No such dispute: ${id}`)
      return toDispute(await work(trx, row))
    })
  }

  #update(trx: SandboxDb, id: string, changes: { status: string; evidence?: string; fee_returned?: boolean }): Promise<DisputeRow> {
    return trx
      .updateTable('sandbox_disputes')
      .set({ ...changes, updated_at: this.#kernel.now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }
}

/** The sandbox has no charge objects of its own: each intent's one charge is named after it. */
function chargeIdOf(paymentIntentId: string): string {
  return paymentIntentId.replace(/^pi_/, 'ch_')
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

/** Stripe's Dispute object: its balance transactions are the withdrawal (amount and fee) and, once won, the reinstatement. */
function disputeObject(row: DisputeRow): Record<string, unknown> {
  const balanceTransactions = [
    // As Stripe's: the amount is what the bank took, the fee beside it, `net` both.
    {
      id: `txn_${row.id}_withdrawn`,
      object: 'balance_transaction',
      amount: -row.amount,
      fee: row.fee_amount,
      net: -row.amount - row.fee_amount,
      currency: row.currency,
      type: 'adjustment',
      reporting_category: 'dispute',
    },
  ]
  if (row.status === 'won') {
    balanceTransactions.push({
      id: `txn_${row.id}_reinstated`,
      object: 'balance_transaction',
      amount: row.amount,
      fee: -row.fee_amount,
      net: row.amount + row.fee_amount,
      currency: row.currency,
      type: 'adjustment',
      reporting_category: 'dispute_reversal',
    })
  }
  const evidence = (row.evidence ?? {}) as Record<string, unknown>
  return {
    id: row.id,
    object: 'dispute',
    amount: row.amount,
    balance_transactions: balanceTransactions,
    charge: chargeIdOf(row.payment_intent_id),
    created: seconds(row.created_at),
    currency: row.currency,
    evidence,
    evidence_details: {
      due_by: seconds(row.evidence_due_by),
      has_evidence: row.evidence !== null,
      past_due: false,
      submission_count: row.evidence === null ? 0 : 1,
    },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: row.payment_intent_id,
    reason: row.reason,
    status: row.status,
  }
}

function toDispute(row: DisputeRow): Dispute {
  const fee = row.fee_returned ? 0 : row.fee_amount
  return {
    id: row.id,
    paymentIntentId: row.payment_intent_id,
    amount: row.amount,
    currency: row.currency,
    status: row.status as DisputeStatus,
    reason: row.reason,
    evidenceDueBy: row.evidence_due_by,
    fee: { amount: fee, currency: row.currency },
  }
}

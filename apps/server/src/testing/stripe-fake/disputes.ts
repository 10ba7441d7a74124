import type { Json, StripeStore } from './store.ts'
import { notUsedByPactum } from './unused-fields.ts'
import { type FormObject, invalidRequest, missing, record, text } from './wire.ts'

/*
 * The Stripe fake's card disputes and transfer reversals, as the API
 * reference and docs.stripe.com/disputes describe them:
 * - a dispute opens `needs_response` on a charge; the disputed amount and
 *   the dispute fee leave the platform's balance at once, one balance
 *   transaction (`type: adjustment`, `reporting_category: dispute`, the fee in
 *   `fee`) listed in the dispute's `balance_transactions`; Stripe tells
 *   `charge.dispute.created` and `charge.dispute.funds_withdrawn`;
 * - `POST /v1/disputes/{id}` takes `evidence` (only the documented fields:
 *   any other is `parameter_unknown`) and `submit`; submitted, it is
 *   `under_review` and takes no more evidence;
 * - `POST /v1/disputes/{id}/close` gives it up: `lost`;
 * - the bank decides (the test's `decideDispute`): won gives the amount
 *   back (`charge.dispute.funds_reinstated`) and, as the sandbox does, the
 *   fee; either outcome ends with `charge.dispute.closed`;
 * - the dispute's `metadata` is its own (empty): it names its charge and
 *   payment intent, not the payment's metadata;
 * - `POST /v1/transfers/{id}/reversals` takes back up to what is left of a
 *   transfer, from the connected account's balance (`transfer.reversed`).
 */

/** The evidence fields a Dispute shows (Dispute.Evidence in stripe 23.1.0), each null until given. */
const evidenceResponseFields = [
  'access_activity_log',
  'billing_address',
  'cancellation_policy',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_communication',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'customer_signature',
  'duplicate_charge_documentation',
  'duplicate_charge_explanation',
  'duplicate_charge_id',
  'product_description',
  'receipt',
  'refund_policy',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'service_documentation',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_documentation',
  'shipping_tracking_number',
  'uncategorized_file',
  'uncategorized_text',
]

/** DisputeUpdateParams.Evidence in stripe 23.1.0 (API 2026-10-28). */
const evidenceFields = new Set([
  'access_activity_log',
  'appeal',
  'billing_address',
  'cancellation_policy',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_communication',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'customer_signature',
  'duplicate_charge_documentation',
  'duplicate_charge_explanation',
  'duplicate_charge_id',
  'enhanced_evidence',
  'product_description',
  'receipt',
  'refund_policy',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'service_documentation',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_documentation',
  'shipping_tracking_number',
  'uncategorized_file',
  'uncategorized_text',
])

/** The evidence fields that name an uploaded file (purpose `dispute_evidence`). */
const fileFields = new Set([
  'cancellation_policy',
  'customer_communication',
  'customer_signature',
  'duplicate_charge_documentation',
  'receipt',
  'refund_policy',
  'service_documentation',
  'shipping_documentation',
  'uncategorized_file',
])

/** The fee the fake's platform pays per dispute, in its settlement currency (Stripe's is set per country). */
const disputeFee = 1_500

export function fakeDisputes(store: StripeStore) {
  const { charges, intents, transfers, files, newId, seconds, emit } = store
  const disputes = new Map<string, Json>()

  function disputeOf(id: string): Json {
    const dispute = disputes.get(id)
    if (!dispute) throw missing('dispute', id)
    return dispute
  }

  /** The cardholder's bank disputes the payment's charge (the test plays the bank). */
  function openDispute(paymentIntentId: string, options: { amount?: number; reason?: string } = {}): Json {
    const intent = intents.get(paymentIntentId)
    const charge = intent ? charges.get(intent.latest_charge as string) : undefined
    if (!intent || !charge || charge.status !== 'succeeded') throw new Error(`no succeeded charge for ${paymentIntentId}`)
    const amount = options.amount ?? (charge.amount as number)
    const id = newId('du')
    const withdrawal = store.balanceTransactionFor(id, 'adjustment', -amount, charge.currency as string)
    // The fee comes out with the amount, in the platform's currency.
    Object.assign(withdrawal, {
      fee: disputeFee,
      fee_details: [
        { amount: disputeFee, application: null, currency: withdrawal.currency, description: 'Dispute fee', type: 'stripe_fee' },
      ],
      net: (withdrawal.amount as number) - disputeFee,
      reporting_category: 'dispute',
    })
    const dispute: Json = {
      id,
      object: 'dispute',
      amount,
      balance_transactions: [withdrawal],
      charge: charge.id,
      created: seconds(),
      currency: charge.currency,
      // Stripe sends every evidence field, empty until given.
      evidence: { ...Object.fromEntries(evidenceResponseFields.map((field) => [field, null])), enhanced_evidence: {} },
      evidence_details: {
        due_by: seconds() + 21 * 86_400,
        enhanced_eligibility: {},
        has_evidence: false,
        past_due: false,
        submission_count: 0,
        submission_method: 'not_submitted',
      },
      enhanced_eligibility_types: [],
      intended_submission_method: null,
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: paymentIntentId,
      reason: options.reason ?? 'fraudulent',
      status: 'needs_response',
    }
    disputes.set(id, dispute)
    charge.disputed = true
    emit('charge.dispute.created', dispute)
    emit('charge.dispute.funds_withdrawn', dispute)
    return dispute
  }

  function updateDispute(id: string, params: FormObject): Json {
    const dispute = disputeOf(id)
    if (dispute.status !== 'needs_response' && dispute.status !== 'warning_needs_response') {
      throw invalidRequest(`This dispute is ${dispute.status as string} and cannot be updated.`, { param: 'evidence' })
    }
    const evidence = record(params.evidence)
    for (const [field, value] of Object.entries(evidence)) {
      if (!evidenceFields.has(field))
        throw invalidRequest(`Received unknown parameter: evidence[${field}]`, { code: 'parameter_unknown', param: `evidence[${field}]` })
      if (fileFields.has(field)) {
        const file = files.get(text(value) ?? '')
        if (!file || file.object.purpose !== 'dispute_evidence')
          throw invalidRequest(`No such file upload: ${text(value) ?? ''}`, { param: `evidence[${field}]` })
      }
    }
    const merged = { ...(dispute.evidence as Json), ...evidence }
    dispute.evidence = merged
    dispute.metadata = { ...(dispute.metadata as Json), ...record(params.metadata) }
    const details = dispute.evidence_details as Json
    details.has_evidence = evidenceResponseFields.some((field) => merged[field] !== null && merged[field] !== undefined)
    if (text(params.submit) === 'true') {
      dispute.status = 'under_review'
      details.submission_count = (details.submission_count as number) + 1
      details.submission_method = 'manual'
    }
    emit('charge.dispute.updated', dispute)
    return dispute
  }

  function closeDispute(id: string): Json {
    const dispute = disputeOf(id)
    if (dispute.status !== 'needs_response' && dispute.status !== 'warning_needs_response') {
      throw invalidRequest(`This dispute is ${dispute.status as string} and cannot be closed.`, { param: 'dispute' })
    }
    dispute.status = 'lost'
    emit('charge.dispute.closed', dispute)
    return dispute
  }

  /** The bank's decision. */
  function decideDispute(id: string, outcome: 'won' | 'lost'): Json {
    const dispute = disputeOf(id)
    dispute.status = outcome
    if (outcome === 'won') {
      const back = store.balanceTransactionFor(id, 'adjustment', dispute.amount as number, dispute.currency as string)
      Object.assign(back, { fee: -disputeFee, net: (back.amount as number) + disputeFee, reporting_category: 'dispute_reversal' })
      ;(dispute.balance_transactions as Json[]).push(back)
      emit('charge.dispute.funds_reinstated', dispute)
    }
    emit('charge.dispute.closed', dispute)
    return dispute
  }

  function reverseTransfer(transferId: string, params: FormObject): Json {
    const transfer = transfers.get(transferId)
    if (!transfer) throw missing('transfer', transferId)
    const left = (transfer.amount as number) - (transfer.amount_reversed as number)
    const amount = text(params.amount) === undefined ? left : Number(params.amount)
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > left) {
      throw invalidRequest('The reversal amount must be positive and at most what is left of the transfer.', { param: 'amount' })
    }
    const reversal: Json = {
      id: newId('trr'),
      object: 'transfer_reversal',
      amount,
      balance_transaction: store.balanceTransactionFor(transferId, 'transfer_refund', amount, transfer.currency as string).id,
      created: seconds(),
      currency: transfer.currency,
      metadata: record(params.metadata),
      transfer: transferId,
      ...notUsedByPactum.transferReversal,
    }
    transfer.amount_reversed = (transfer.amount_reversed as number) + amount
    transfer.reversed = transfer.amount_reversed === transfer.amount
    ;((transfer.reversals as Json).data as Json[]).unshift(reversal)
    emit('transfer.reversed', transfer)
    return reversal
  }

  return { disputeOf, openDispute, updateDispute, closeDispute, decideDispute, reverseTransfer }
}

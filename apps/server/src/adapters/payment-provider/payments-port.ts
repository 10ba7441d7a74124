/**
 * The payment provider's payments port, shaped after Stripe (PaymentIntents,
 * Refunds and Transfers) so that the Stripe adapter is a thin translation.
 * One of three ports onto the same provider: this one moves money (the
 * buyer's payment, refunds, the release to the seller);
 * connected-accounts-port.ts is the seller's account there, identity-port.ts
 * the Identity sessions. Two adapters: `sandbox-payments.ts` (default, no
 * network) and `stripe-payments.ts`, chosen in `adapters/providers.ts`.
 *
 * Every call that moves money carries an idempotency key derived from
 * (transaction id, action): the same key with the same parameters gives the
 * first answer again, the same key with other parameters is refused.
 * Results arrive asynchronously as webhooks (see modules/payments/payment-event.ts);
 * a call's answer only says what the provider has accepted so far.
 */
import type { ProviderMovement } from '@pactum/domain/reconciliation'

export type PaymentMethodType = 'card' | 'sepa' | 'p24'

export type PaymentIntentStatus = 'requires_payment_method' | 'requires_action' | 'processing' | 'succeeded' | 'canceled'

export interface PaymentError {
  /** Stripe's error code: `card_declined`, `incorrect_number`, `invalid_iban`, … */
  code: string
  /** The precise reason (Stripe's decline_code where there is one): `insufficient_funds`, … */
  reason: string
  message: string
}

export interface PaymentIntent {
  id: string
  clientSecret: string
  status: PaymentIntentStatus
  /** Minor units. */
  amount: number
  currency: string
  paymentMethod: PaymentMethodType
  transactionId: string
  metadata: Record<string, string>
  amountRefunded: number
  /** Why the last confirmation failed (the intent then waits for another payment method). */
  lastPaymentError: PaymentError | null
  /** P24: where to send the buyer to authorise. */
  nextAction: { type: 'redirect_to_url'; url: string; returnUrl: string } | null
}

export interface CreatePaymentIntentInput {
  amount: number
  currency: string
  paymentMethod: PaymentMethodType
  transactionId: string
  idempotencyKey: string
  metadata?: Record<string, string>
}

export interface TransferInput {
  amount: number
  currency: string
  /** The connected account credited. */
  destinationAccount: string
  transactionId: string
  idempotencyKey: string
}

export type RefundStatus = 'pending' | 'succeeded' | 'failed'

export interface Refund {
  id: string
  paymentIntentId: string
  amount: number
  currency: string
  status: RefundStatus
  failureReason: string | null
}

export interface Transfer {
  id: string
  amount: number
  currency: string
  destinationAccount: string
  transactionId: string
}

/**
 * One movement of the platform's balance at the provider (Stripe's balance
 * transaction), as the daily reconciliation reads it (decision 107).
 * `kind` sorts Stripe's many `type`s; `objectId` is the id Pactum records
 * for the movement: a charge's payment intent, a refund's or a transfer's
 * own id.
 */
export type BalanceMovement = ProviderMovement & {
  /** The object that caused it at the provider (`ch_…`, `re_…`, `tr_…`, `po_…`). */
  sourceId: string | null
  net: number
  created: Date
}

export interface Payments {
  readonly name: 'sandbox' | 'stripe'
  /** For the browser (Stripe.js, or the sandbox's confirm call). */
  readonly publishableKey: string
  createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntent>
  retrievePaymentIntent(id: string): Promise<PaymentIntent>
  /** Before a new intent replaces it (another payment method): an open intent must not be paid as well. */
  cancelPaymentIntent(input: { paymentIntentId: string; idempotencyKey: string }): Promise<PaymentIntent>
  /**
   * A card refund answers `succeeded` at once; a refund to a bank (SEPA,
   * P24) answers `pending`, and `refund_succeeded` / `refund_failed` follow.
   * Either way the provider's webhook tells it too.
   */
  refund(input: { paymentIntentId: string; amount: number; idempotencyKey: string }): Promise<Refund>
  /** The release: credits a connected account's balance with what the transaction's payments brought; `transfer_paid` follows. */
  transfer(input: TransferInput): Promise<Transfer>
  /** The platform balance's movements created in [from, to), every page of them, oldest first. */
  listBalanceMovements(range: { from: Date; to: Date }): Promise<BalanceMovement[]>
  /**
   * Takes back from the seller's account up to `amount` (the sale's
   * currency) of what the transaction's release transferred (Stripe's
   * transfer reversal), after a card dispute lost on money already released.
   */
  reverseTransfer(input: {
    transactionId: string
    amount: number
    currency: string
    idempotencyKey: string
  }): Promise<{ id: string; amount: number }>
  /** Card disputes (docs/decisions/109): as the provider has it now. */
  retrieveDispute(id: string): Promise<Dispute>
  /** Sends the evidence and submits it: the dispute goes `under_review` and the provider's news follows. */
  submitDisputeEvidence(input: { disputeId: string; evidence: DisputeEvidence }): Promise<Dispute>
  /** Gives the dispute up (Stripe's `close`): it is `lost` at once. */
  acceptDispute(disputeId: string): Promise<Dispute>
}

/** The provider's statuses, of which Pactum follows the four of a chargeback (an inquiry's `warning_*` are only logged). */
export type DisputeStatus =
  'warning_needs_response' | 'warning_under_review' | 'warning_closed' | 'needs_response' | 'under_review' | 'won' | 'lost' | 'prevented'

export interface Dispute {
  id: string
  paymentIntentId: string
  amount: number
  currency: string
  status: DisputeStatus
  /** The card network's reason (`fraudulent`, `product_not_received`, …). */
  reason: string
  evidenceDueBy: Date | null
  /** The provider's net fee on it so far (its balance transactions' fees), in their currency; null before any. */
  fee: { amount: number; currency: string } | null
}

/** What Pactum sends the bank through the provider: the sale's own record. */
export interface DisputeEvidence {
  productDescription: string
  /** The sale's history, the parties' conversation and the case, as text. */
  uncategorizedText: string
  shippingCarrier: string | null
  shippingTrackingNumber: string | null
  /** The case file PDF, where a complaint opened a case. */
  caseFile: { fileName: string; content: Buffer } | null
}

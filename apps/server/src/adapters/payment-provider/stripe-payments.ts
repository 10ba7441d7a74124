import type Stripe from 'stripe'
import { callStripe } from './stripe-errors.ts'
import { stripeMethodNames, toPaymentIntent, toRefund } from './stripe-mapping.ts'
import type { CreatePaymentIntentInput, PaymentIntent, Payments, Refund, Transfer, TransferInput } from './payments-port.ts'
import { PaymentProviderError } from './provider-error.ts'

/**
 * Payments on Stripe (separate charges and transfers): the
 * buyer's PaymentIntent is charged to the platform, with the transaction id
 * as `transfer_group` and in the metadata, and the money stays in the
 * platform's balance (the escrow) until a release transfers it to the
 * seller's connected account with `source_transaction` = that charge, so
 * a transfer can never spend money another transaction brought in. Every
 * call that moves money passes the outbox's idempotency key as Stripe's
 * (Stripe keeps a key 24 hours; ours live as long as the transaction, and
 * a retry within a day gives the first answer again). Connected accounts,
 * documents and payouts are in stripe-connected-accounts.ts, Identity in
 * stripe-identity.ts.
 */
export class StripePayments implements Payments {
  readonly name = 'stripe' as const
  readonly publishableKey: string
  readonly #stripe: Stripe

  constructor(options: { stripe: Stripe; publishableKey: string }) {
    this.#stripe = options.stripe
    this.publishableKey = options.publishableKey
  }

  async createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntent> {
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
      throw new PaymentProviderError('invalid_request', 'The amount must be a positive integer in minor units', { param: 'amount' })
    }
    const intent = await callStripe(() =>
      this.#stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency.toLowerCase(),
          allowed_payment_method_types: [
            stripeMethodNames[input.paymentMethod] as Stripe.PaymentIntentCreateParams.AllowedPaymentMethodType,
          ],
          transfer_group: input.transactionId,
          metadata: { ...input.metadata, transaction_id: input.transactionId },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    )
    return toPaymentIntent(intent)
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntent> {
    // The charge says how much was refunded.
    return toPaymentIntent(await callStripe(() => this.#stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] })))
  }

  async cancelPaymentIntent(input: { paymentIntentId: string; idempotencyKey: string }): Promise<PaymentIntent> {
    try {
      return toPaymentIntent(
        await callStripe(() => this.#stripe.paymentIntents.cancel(input.paymentIntentId, {}, { idempotencyKey: input.idempotencyKey })),
      )
    } catch (error) {
      // Stripe refuses to cancel twice; the port answers the canceled intent again.
      if (!(error instanceof PaymentProviderError) || error.code !== 'invalid_state') throw error
      const current = await this.retrievePaymentIntent(input.paymentIntentId)
      if (current.status === 'canceled') return current
      throw error
    }
  }

  async refund(input: { paymentIntentId: string; amount: number; idempotencyKey: string }): Promise<Refund> {
    const intent = await this.retrievePaymentIntent(input.paymentIntentId)
    const refund = await callStripe(() =>
      this.#stripe.refunds.create(
        // The transaction id in the refund's own metadata: its webhooks name the transaction (reduce-provider-event.ts).
        { payment_intent: input.paymentIntentId, amount: input.amount, metadata: { transaction_id: intent.transactionId } },
        { idempotencyKey: input.idempotencyKey },
      ),
    )
    return toRefund(refund, input.paymentIntentId)
  }

  /**
   * The release: money the transaction's charges brought in, moved to the
   * seller. Each transfer names its charge as `source_transaction`, so
   * Stripe takes it from that charge's funds (available or not yet) and
   * refuses more than the charge brought. A face-to-face sale was paid in
   * two charges (deposit, remainder): the amount is split over them in the
   * order they were made, one transfer each, with the outbox's key plus the
   * charge id, so a retry makes the same split and no transfer twice.
   */
  async transfer(input: TransferInput): Promise<Transfer> {
    const charges = await this.#chargesOf(input.transactionId, input.currency.toLowerCase())
    const pieces = splitOverCharges(input.amount, charges)
    if (!pieces) {
      throw new PaymentProviderError(
        'invalid_state',
        `The payments of transaction ${input.transactionId} do not cover a transfer of ${input.amount}`,
      )
    }
    const made: Stripe.Transfer[] = []
    for (const piece of pieces) {
      const transfer = await callStripe(() =>
        this.#stripe.transfers.create(
          {
            amount: piece.amount,
            currency: input.currency.toLowerCase(),
            destination: input.destinationAccount,
            source_transaction: piece.chargeId,
            transfer_group: input.transactionId,
            metadata: { transaction_id: input.transactionId },
          },
          { idempotencyKey: pieces.length === 1 ? input.idempotencyKey : `${input.idempotencyKey}:${piece.chargeId}` },
        ),
      )
      made.push(transfer)
    }
    const first = made[0] as Stripe.Transfer
    return {
      id: first.id,
      amount: input.amount,
      currency: first.currency,
      destinationAccount: input.destinationAccount,
      transactionId: input.transactionId,
    }
  }

  /** The transaction's succeeded charges in this currency, oldest first, with what is left of each after refunds. */
  async #chargesOf(transactionId: string, currency: string): Promise<Array<{ id: string; left: number }>> {
    const charges: Array<{ id: string; left: number; created: number }> = []
    for await (const charge of this.#stripe.charges.list({ transfer_group: transactionId, limit: 100 })) {
      if (charge.status === 'succeeded' && charge.paid && charge.currency === currency) {
        charges.push({ id: charge.id, left: charge.amount - charge.amount_refunded, created: charge.created })
      }
    }
    return charges.sort((a, b) => a.created - b.created || a.id.localeCompare(b.id))
  }
}

/** The amount split over the charges, oldest first; null when they do not cover it. */
export function splitOverCharges(
  amount: number,
  charges: Array<{ id: string; left: number }>,
): Array<{ chargeId: string; amount: number }> | null {
  const pieces: Array<{ chargeId: string; amount: number }> = []
  let rest = amount
  for (const charge of charges) {
    if (rest <= 0) break
    const take = Math.min(rest, charge.left)
    if (take <= 0) continue
    pieces.push({ chargeId: charge.id, amount: take })
    rest -= take
  }
  return rest === 0 && pieces.length > 0 ? pieces : null
}

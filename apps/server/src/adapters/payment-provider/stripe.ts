import type { Kysely } from 'kysely'
import type Stripe from 'stripe'
import type { Database } from '../../db/schema.ts'
import { callStripe } from './stripe-errors.ts'
import { StripeConnect } from './stripe-connect.ts'
import { stripeMethodNames, toPaymentIntent, toRefund } from './stripe-mapping.ts'
import {
  type AccountProfile,
  type AccountVerification,
  type Balance,
  type ConnectedAccount,
  type CreatePaymentIntentInput,
  type ExternalBankAccountInput,
  type PaymentIntent,
  type PaymentProvider,
  PaymentProviderError,
  type Payout,
  type Refund,
  type TaxIdentifiersInput,
  type Transfer,
  type TransferRecord,
  type UploadIdentityDocumentInput,
  type VerificationSession,
} from './port.ts'

export interface StripeProviderOptions {
  stripe: Stripe
  db: Kysely<Database>
  publishableKey: string
  /** Where Stripe serves file contents (files.stripe.com, or STRIPE_API_URL's host). */
  filesBaseUrl: string
  secretKey: string
  /** Pactum's own address (PUBLIC_URL): Stripe sends people back to absolute URLs only. */
  publicUrl: string
}

/**
 * The payment provider on Stripe (separate charges and transfers): the
 * buyer's PaymentIntent is charged to the platform, with the transaction id
 * as `transfer_group` and in the metadata, and the money stays in the
 * platform's balance (the escrow) until a release transfers it to the
 * seller's connected account with `source_transaction` = that charge, so
 * a transfer can never spend money another transaction brought in. Every
 * call that moves money passes the outbox's idempotency key as Stripe's
 * (Stripe keeps a key 24 hours; ours live as long as the transaction, and
 * a retry within a day gives the first answer again). Connected accounts,
 * documents, payouts and Identity are in stripe-connect.ts.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const
  readonly publishableKey: string
  readonly #stripe: Stripe
  readonly #connect: StripeConnect

  constructor(options: StripeProviderOptions) {
    this.#stripe = options.stripe
    this.publishableKey = options.publishableKey
    this.#connect = new StripeConnect(options)
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
          allowed_payment_method_types: [stripeMethodNames[input.paymentMethod] as Stripe.PaymentIntentCreateParams.AllowedPaymentMethodType],
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
      return toPaymentIntent(await callStripe(() => this.#stripe.paymentIntents.cancel(input.paymentIntentId, {}, { idempotencyKey: input.idempotencyKey })))
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

  createConnectedAccount(input: { userId: string; email: string; country: string; idempotencyKey: string }): Promise<ConnectedAccount> {
    return this.#connect.createConnectedAccount(input)
  }

  findConnectedAccount(userId: string): Promise<ConnectedAccount | null> {
    return this.#connect.findConnectedAccount(userId)
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
  async transfer(input: { amount: number; currency: string; destinationAccount: string; transactionId: string; idempotencyKey: string }): Promise<Transfer> {
    const charges = await this.#chargesOf(input.transactionId, input.currency.toLowerCase())
    const pieces = splitOverCharges(input.amount, charges)
    if (!pieces) {
      throw new PaymentProviderError('invalid_state', `The payments of transaction ${input.transactionId} do not cover a transfer of ${input.amount}`)
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
    return { id: first.id, amount: input.amount, currency: first.currency, destinationAccount: input.destinationAccount, transactionId: input.transactionId }
  }

  getBalance(accountId: string): Promise<Balance> {
    return this.#connect.getBalance(accountId)
  }

  /** Read on the platform, which made the transfers: their metadata names the transaction. */
  async listTransfers(accountId: string): Promise<TransferRecord[]> {
    const records: TransferRecord[] = []
    for await (const transfer of this.#stripe.transfers.list({ destination: accountId, limit: 100 })) {
      records.push({
        id: transfer.id,
        amount: transfer.amount - transfer.amount_reversed,
        currency: transfer.currency,
        destinationAccount: accountId,
        transactionId: transfer.metadata.transaction_id ?? transfer.transfer_group ?? '',
        created: new Date(transfer.created * 1000),
      })
      if (records.length >= 1000) break
    }
    return records
  }

  uploadIdentityDocument(input: UploadIdentityDocumentInput): Promise<{ fileId: string }> {
    return this.#connect.uploadIdentityDocument(input)
  }

  getAccountVerification(accountId: string): Promise<AccountVerification> {
    return this.#connect.getAccountVerification(accountId)
  }

  setTaxIdentifiers(input: TaxIdentifiersInput): Promise<void> {
    return this.#connect.setTaxIdentifiers(input)
  }

  setExternalBankAccount(input: ExternalBankAccountInput): Promise<void> {
    return this.#connect.setExternalBankAccount(input)
  }

  attachBankAccountToken(input: { accountId: string; token: string; idempotencyKey: string }): Promise<{ last4: string }> {
    return this.#connect.attachBankAccountToken(input)
  }

  listPayouts(accountId: string): Promise<Payout[]> {
    return this.#connect.listPayouts(accountId)
  }

  createVerificationSession(input: { userId: string; returnUrl: string; idempotencyKey: string }): Promise<VerificationSession> {
    return this.#connect.createVerificationSession(input)
  }

  retrieveVerificationSession(id: string, returnUrl: string): Promise<VerificationSession> {
    return this.#connect.retrieveVerificationSession(id, returnUrl)
  }

  attachVerifiedSession(input: { accountId: string; sessionId: string; idempotencyKey: string }): Promise<void> {
    return this.#connect.attachVerifiedSession(input)
  }

  createAccountSession(accountId: string): Promise<{ clientSecret: string }> {
    return this.#connect.createAccountSession(accountId)
  }

  updateAccountProfile(input: { accountId: string; profile: AccountProfile; idempotencyKey: string }): Promise<void> {
    return this.#connect.updateAccountProfile(input)
  }

  createOnboardingLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<{ url: string }> {
    return this.#connect.createOnboardingLink(input)
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
export function splitOverCharges(amount: number, charges: Array<{ id: string; left: number }>): Array<{ chargeId: string; amount: number }> | null {
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

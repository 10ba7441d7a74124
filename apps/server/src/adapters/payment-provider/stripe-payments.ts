import { methodTakesCurrency } from '@pactum/domain/currencies'
import type Stripe from 'stripe'
import { callStripe } from './stripe-errors.ts'
import { stripeMethodNames, toPaymentIntent, toRefund } from './stripe-mapping.ts'
import type { ProviderMovementKind } from '@pactum/domain/reconciliation'
import type {
  BalanceMovement,
  CreatePaymentIntentInput,
  Dispute,
  DisputeEvidence,
  DisputeStatus,
  PaymentIntent,
  Payments,
  Refund,
  Transfer,
  TransferInput,
} from './payments-port.ts'
import { PaymentProviderError } from './provider-error.ts'

/**
 * Payments on Stripe (separate charges and transfers): the
 * buyer's PaymentIntent is charged to the platform, with the transaction id
 * as `transfer_group` and in the metadata, and the money stays in the
 * platform's balance (the escrow) until a release transfers it to the
 * seller's connected account with `source_transaction` = that charge, so
 * a transfer can never spend money another transaction brought in. Every
 * call that moves money passes the outbox's idempotency key as Stripe's
 * (Stripe keeps a key 24 hours; ours live as long as the transaction: a
 * retry within a day gives the first answer again, and a later one finds
 * the transfer or refund made under the key in its metadata before making
 * one). Connected accounts,
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
    if (!methodTakesCurrency(input.paymentMethod, input.currency.toLowerCase())) {
      throw new PaymentProviderError('unsupported_combination', `${input.paymentMethod} does not take ${input.currency}`, {
        param: 'currency',
      })
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

  /**
   * A refund on the PaymentIntent. Stripe forgets an idempotency key after
   * 24 hours, and the outbox retries for longer: the refund made under this
   * key is looked for first (its metadata names the key), so a retry a day
   * later answers it instead of refunding again.
   */
  async refund(input: { paymentIntentId: string; amount: number; idempotencyKey: string }): Promise<Refund> {
    const made = await this.#refundMadeWith(input.paymentIntentId, input.idempotencyKey)
    if (made) return toRefund(made, input.paymentIntentId)
    const intent = await this.retrievePaymentIntent(input.paymentIntentId)
    const refund = await callStripe(() =>
      this.#stripe.refunds.create(
        // The transaction id in the refund's own metadata: its webhooks name the transaction (reduce-provider-event.ts).
        {
          payment_intent: input.paymentIntentId,
          amount: input.amount,
          metadata: { transaction_id: intent.transactionId, [pactumKeyField]: input.idempotencyKey },
        },
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
   *
   * The amount is in the sale's currency; Stripe transfers from a charge
   * only in the currency its balance transaction settled in (the
   * platform's), so each piece is converted at that charge's own rate: the
   * share of the charge's settled amount that the piece is of the charge
   * (decision 104).
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
      const charge = charges.find((candidate) => candidate.id === piece.chargeId) as SaleCharge
      const key = pieces.length === 1 ? input.idempotencyKey : `${input.idempotencyKey}:${piece.chargeId}`
      const existing = await this.#transferMadeWith(input.transactionId, key)
      if (existing) {
        made.push(existing)
        continue
      }
      const transfer = await callStripe(() =>
        this.#stripe.transfers.create(
          {
            amount: settledShare(piece.amount, charge),
            currency: charge.settlement.currency,
            destination: input.destinationAccount,
            source_transaction: piece.chargeId,
            transfer_group: input.transactionId,
            metadata: { transaction_id: input.transactionId, [pactumKeyField]: key },
          },
          { idempotencyKey: key },
        ),
      )
      made.push(transfer)
    }
    const first = made[0] as Stripe.Transfer
    return {
      id: first.id,
      amount: made.reduce((sum, transfer) => sum + transfer.amount, 0),
      currency: first.currency,
      destinationAccount: input.destinationAccount,
      transactionId: input.transactionId,
    }
  }

  /**
   * The platform balance's transactions of the range (`GET
   * /v1/balance_transactions` with `created[gte]`/`created[lt]`, every page),
   * each with its source expanded: a charge names its payment intent, a
   * converted charge or refund its amount before conversion, and a transfer
   * from a converted charge that charge's rate (decision 104), read from
   * the charge and its own balance transaction.
   */
  async listBalanceMovements(range: { from: Date; to: Date }): Promise<BalanceMovement[]> {
    const movements: BalanceMovement[] = []
    const listed = this.#stripe.balanceTransactions.list({
      created: { gte: Math.floor(range.from.getTime() / 1000), lt: Math.floor(range.to.getTime() / 1000) },
      limit: 100,
      expand: ['data.source'],
    })
    for await (const balance of listed) movements.push(await this.#toMovement(balance))
    // Stripe lists newest first.
    return movements.sort((a, b) => a.created.getTime() - b.created.getTime() || a.id.localeCompare(b.id))
  }

  async #toMovement(balance: Stripe.BalanceTransaction): Promise<BalanceMovement> {
    const source = balance.source
    const sourceId = typeof source === 'string' ? source : (source?.id ?? null)
    const kind = movementKind(balance.type, sourceId)
    const movement: BalanceMovement = {
      id: balance.id,
      kind,
      providerType: balance.type,
      objectId: sourceId,
      sourceId,
      amount: balance.amount,
      fee: balance.fee,
      net: balance.net,
      currency: balance.currency,
      created: new Date(balance.created * 1000),
    }
    if (!source || typeof source === 'string') return movement
    if (kind === 'charge' && source.object === 'charge') {
      const intent = source.payment_intent
      movement.objectId = typeof intent === 'string' ? intent : (intent?.id ?? null)
      if (source.currency !== balance.currency) movement.presentment = { amount: source.amount, currency: source.currency }
    } else if (kind === 'refund' && source.object === 'refund') {
      if (source.currency !== balance.currency) movement.presentment = { amount: source.amount, currency: source.currency }
    } else if (kind === 'dispute' && source.object === 'dispute') {
      // Matched by the dispute's id; a converted one by what the bank took in the sale's currency.
      if (source.currency !== balance.currency) {
        movement.presentment = { amount: source.amount, currency: source.currency }
      }
    } else if (kind === 'transfer' && source.object === 'transfer') {
      movement.group = releaseKeyOf(source)
      if (source.source_transaction) movement.sourceCharge = await this.#sourceChargeRate(source.source_transaction)
    }
    return movement
  }

  /** A converted transfer's source charge: what it charged (sale currency) and what it settled as; undefined without conversion. */
  async #sourceChargeRate(chargeRef: string | Stripe.Charge): Promise<BalanceMovement['sourceCharge']> {
    const chargeId = typeof chargeRef === 'string' ? chargeRef : chargeRef.id
    const charge = await callStripe(() => this.#stripe.charges.retrieve(chargeId, { expand: ['balance_transaction'] }))
    const settlement = await this.#settlementOf(charge)
    if (charge.currency === settlement.currency) return undefined
    return { amount: charge.amount, currency: charge.currency, settledAmount: settlement.amount }
  }

  /**
   * Takes back from the transaction's transfers (newest first) up to
   * `amount` of the sale's currency, each piece converted at its charge's
   * rate as the transfer was (`POST /v1/transfers/{id}/reversals`). Each
   * reversal carries the outbox key plus the transfer id, so a retry after
   * Stripe forgot the key (24 h) finds it in the transfer's reversals.
   */
  async reverseTransfer(input: {
    transactionId: string
    amount: number
    currency: string
    idempotencyKey: string
  }): Promise<{ id: string; amount: number }> {
    const charges = await this.#chargesOf(input.transactionId, input.currency.toLowerCase())
    const transfers: Stripe.Transfer[] = []
    for await (const transfer of this.#stripe.transfers.list({ transfer_group: input.transactionId, limit: 100 })) transfers.push(transfer)
    transfers.sort((a, b) => b.created - a.created)
    let left = input.amount
    let first: Stripe.TransferReversal | null = null
    for (const transfer of transfers) {
      if (left === 0) break
      const charge = charges.find((candidate) => candidate.id === sourceChargeId(transfer))
      // What is left of the transfer, in the sale's currency, at its charge's rate.
      const rate = charge ? { amount: charge.amount, settlement: { amount: charge.settlement.amount } } : null
      const open = transfer.amount - transfer.amount_reversed
      const openInSale = rate ? Math.floor((open * rate.amount) / rate.settlement.amount) : open
      const piece = Math.min(left, openInSale)
      if (piece <= 0) continue
      const key = `${input.idempotencyKey}:${transfer.id}`
      const existing = transfer.reversals.data.find((reversal) => reversal.metadata?.[pactumKeyField] === key)
      const reversal =
        existing ??
        (await callStripe(() =>
          this.#stripe.transfers.createReversal(
            transfer.id,
            { amount: rate ? settledShare(piece, rate) : piece, metadata: { transaction_id: input.transactionId, [pactumKeyField]: key } },
            { idempotencyKey: key },
          ),
        ))
      first ??= reversal
      left -= piece
    }
    if (!first) throw new PaymentProviderError('invalid_state', `Transaction ${input.transactionId} has no transfer left to reverse`)
    return { id: first.id, amount: input.amount - left }
  }

  async retrieveDispute(id: string): Promise<Dispute> {
    return toDispute(await callStripe(() => this.#stripe.disputes.retrieve(id)))
  }

  /**
   * `POST /v1/disputes/{id}` with `evidence` and `submit: true`: Stripe
   * sends it to the bank at once (a later update is refused). The case
   * file goes as an `uncategorized_file` uploaded with purpose `dispute_evidence`.
   */
  async submitDisputeEvidence(input: { disputeId: string; evidence: DisputeEvidence }): Promise<Dispute> {
    const { evidence } = input
    const file = evidence.caseFile
    const uploaded = file
      ? await callStripe(() =>
          this.#stripe.files.create({
            purpose: 'dispute_evidence',
            file: { data: file.content, name: file.fileName, type: 'application/pdf' },
          }),
        )
      : null
    const dispute = await callStripe(() =>
      this.#stripe.disputes.update(input.disputeId, {
        evidence: {
          product_description: evidence.productDescription.slice(0, 20_000),
          uncategorized_text: evidence.uncategorizedText.slice(0, 20_000),
          ...(evidence.shippingCarrier ? { shipping_carrier: evidence.shippingCarrier } : {}),
          ...(evidence.shippingTrackingNumber ? { shipping_tracking_number: evidence.shippingTrackingNumber } : {}),
          ...(uploaded ? { uncategorized_file: uploaded.id } : {}),
        },
        submit: true,
      }),
    )
    return toDispute(dispute)
  }

  /** `POST /v1/disputes/{id}/close`: the dispute is lost at once. */
  async acceptDispute(disputeId: string): Promise<Dispute> {
    return toDispute(await callStripe(() => this.#stripe.disputes.close(disputeId)))
  }

  /** The transaction's succeeded charges in this currency, oldest first, with what is left of each after refunds and what it settled as. */
  async #chargesOf(transactionId: string, currency: string): Promise<SaleCharge[]> {
    const charges: Array<SaleCharge & { created: number }> = []
    const listed = this.#stripe.charges.list({ transfer_group: transactionId, limit: 100, expand: ['data.balance_transaction'] })
    for await (const charge of listed) {
      if (charge.status === 'succeeded' && charge.paid && charge.currency === currency) {
        charges.push({
          id: charge.id,
          amount: charge.amount,
          left: charge.amount - charge.amount_refunded,
          settlement: await this.#settlementOf(charge),
          created: charge.created,
        })
      }
    }
    return charges.sort((a, b) => a.created - b.created || a.id.localeCompare(b.id))
  }

  /** What the charge added to the platform's balance, in the platform's currency. */
  async #settlementOf(charge: Stripe.Charge): Promise<{ amount: number; currency: string }> {
    const reference = charge.balance_transaction
    const balance = typeof reference === 'string' ? await callStripe(() => this.#stripe.balanceTransactions.retrieve(reference)) : reference
    if (!balance) throw new PaymentProviderError('invalid_state', `Charge ${charge.id} has not settled into the balance yet`)
    return { amount: balance.amount, currency: balance.currency }
  }

  async #transferMadeWith(transactionId: string, key: string): Promise<Stripe.Transfer | null> {
    for await (const transfer of this.#stripe.transfers.list({ transfer_group: transactionId, limit: 100 })) {
      if (transfer.metadata?.[pactumKeyField] === key) return transfer
    }
    return null
  }

  async #refundMadeWith(paymentIntentId: string, key: string): Promise<Stripe.Refund | null> {
    for await (const refund of this.#stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 })) {
      if (refund.metadata?.[pactumKeyField] === key) return refund
    }
    return null
  }
}

/** The charge a transfer was made from (its `source_transaction`). */
function sourceChargeId(transfer: Stripe.Transfer): string | null {
  const source = transfer.source_transaction
  return typeof source === 'string' ? source : (source?.id ?? null)
}

/**
 * Stripe's Dispute as the port's: the fee is the sum of its balance
 * transactions' fees (the withdrawal's, less any returned with the
 * reinstatement), in their currency, the platform's.
 */
export function toDispute(dispute: Stripe.Dispute): Dispute {
  const paymentIntent = dispute.payment_intent
  const balance = dispute.balance_transactions
  const fee =
    balance.length === 0
      ? null
      : { amount: balance.reduce((sum, entry) => sum + entry.fee, 0), currency: balance[0]?.currency ?? dispute.currency }
  return {
    id: dispute.id,
    paymentIntentId: typeof paymentIntent === 'string' ? paymentIntent : (paymentIntent?.id ?? ''),
    amount: dispute.amount,
    currency: dispute.currency,
    status: dispute.status as DisputeStatus,
    reason: dispute.reason,
    evidenceDueBy: dispute.evidence_details?.due_by ? new Date(dispute.evidence_details.due_by * 1000) : null,
    fee,
  }
}

/** The release a transfer was made for: the outbox's key, without the charge a piece of a split release names (`key:ch_…`). */
function releaseKeyOf(transfer: Stripe.Transfer): string | undefined {
  return transfer.metadata?.[pactumKeyField]?.replace(/:(ch|py)_[A-Za-z0-9]+$/, '')
}

/** Stripe's balance transaction types, sorted for the reconciliation; a dispute's withdrawal is an `adjustment` whose source is the dispute. */
export function movementKind(type: string, sourceId: string | null): ProviderMovementKind {
  switch (type) {
    case 'charge':
    case 'payment':
      return 'charge'
    case 'refund':
    case 'payment_refund':
    case 'refund_failure':
    case 'payment_failure_refund':
      return 'refund'
    case 'transfer':
      return 'transfer'
    case 'transfer_cancel':
    case 'transfer_failure':
    case 'transfer_refund':
      return 'transfer_reversal'
    case 'payout':
    case 'payout_cancel':
    case 'payout_failure':
      return 'payout'
    case 'stripe_fee':
    case 'stripe_fx_fee':
    case 'tax_fee':
      return 'fee'
    case 'adjustment':
      return sourceId?.startsWith('dp_') || sourceId?.startsWith('du_') ? 'dispute' : 'other'
    default:
      return 'other'
  }
}

/** The metadata field that names the outbox's idempotency key on a transfer or refund, for the look-up above. */
const pactumKeyField = 'pactum_idempotency_key'

interface SaleCharge {
  id: string
  /** In the sale's currency. */
  amount: number
  left: number
  /** What the charge settled as in the platform's balance (its balance transaction). */
  settlement: { amount: number; currency: string }
}

/**
 * A piece of a charge (sale currency) in the charge's settlement currency,
 * at the rate the charge settled at, rounded down: never more than the
 * charge brought in. With no conversion it is the piece itself.
 */
export function settledShare(piece: number, charge: { amount: number; settlement: { amount: number } }): number {
  if (charge.settlement.amount === charge.amount) return piece
  return Number((BigInt(piece) * BigInt(charge.settlement.amount)) / BigInt(charge.amount))
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

import { randomBytes } from 'node:crypto'
import { methodTakesCurrency } from '@pactum/domain/currencies'
import {
  type BalanceMovement,
  type CreatePaymentIntentInput,
  type Dispute,
  type DisputeEvidence,
  type PaymentIntent,
  type PaymentIntentStatus,
  type PaymentMethodType,
  type Payments,
  type Refund,
  type Transfer,
  type TransferInput,
} from './payments-port.ts'
import { PaymentProviderError } from './provider-error.ts'
import { isSafeReturnUrl } from '../../http/return-url.ts'
import { newSandboxId, type SandboxDb, type SandboxKernel, secretMatches } from './sandbox-kernel.ts'
import {
  assertAmount,
  type IntentRow,
  intentObject,
  lockIntent,
  refundObject,
  toPaymentIntent,
  toRefund,
} from './sandbox-payment-objects.ts'
import { sandboxBalanceMovements } from './sandbox-balance.ts'
import type { SandboxDisputes } from './sandbox-disputes.ts'
import { cardOutcome, type DeclineDetails, ibanOutcome, sepaFailure } from './sandbox-test-data.ts'

/**
 * The sandbox's payments (payments-port.ts), with Stripe's semantics:
 * intents that confirm synchronously (cards), after a delay (SEPA) or after
 * a redirect (P24); refunds that settle at once (cards) or when the bank
 * takes them (SEPA, P24); transfers that credit a
 * connected account's balance; idempotency keys; and every change announced
 * by a signed webhook (sandbox-kernel.ts). Its state lives in its own
 * `sandbox_*` tables, which nothing else reads.
 */
export const paymentQueues = {
  settlePayment: 'sandbox-settle-payment',
  settleRefund: 'sandbox-settle-refund',
} as const

export interface SandboxPaymentsOptions {
  publishableKey: string
  sepaDelaySeconds: number
  refundDelaySeconds: number
  /** Money transferred to an account makes a payout run due (sandbox-payouts.ts). */
  payouts: { schedulePayoutRun(trx: SandboxDb, accountId: string): Promise<void> }
  disputes: SandboxDisputes
}

export interface ConfirmInput {
  clientSecret: string
  cardNumber?: string | undefined
  iban?: string | undefined
  /** P24 without an outcome answers `requires_action` with the redirect page. */
  p24Outcome?: 'succeeded' | 'failed' | undefined
  /** P24: a same-origin path the redirect page returns to. */
  returnUrl?: string | undefined
}

type Db = SandboxDb

export class SandboxPayments implements Payments {
  readonly name = 'sandbox' as const
  readonly publishableKey: string
  /** The sandbox's card disputes (sandbox-disputes.ts), which only the sandbox lets anyone open. */
  readonly disputes: SandboxDisputes
  readonly #options: SandboxPaymentsOptions
  readonly #kernel: SandboxKernel

  constructor(kernel: SandboxKernel, options: SandboxPaymentsOptions) {
    this.#kernel = kernel
    this.#options = options
    this.publishableKey = options.publishableKey
    this.disputes = options.disputes
  }

  async createQueues(): Promise<void> {
    const { jobs } = this.#kernel
    await jobs.createQueue(paymentQueues.settlePayment, { retryLimit: 10, retryDelay: 5 })
    await jobs.createQueue(paymentQueues.settleRefund, { retryLimit: 10, retryDelay: 5 })
  }

  async startWorkers(): Promise<void> {
    const { jobs } = this.#kernel
    await jobs.work<{ paymentIntentId: string }>(paymentQueues.settlePayment, (data) => this.#settlePayment(data.paymentIntentId))
    await jobs.work<{ refundId: string }>(paymentQueues.settleRefund, (data) => this.#settleRefund(data.refundId))
  }

  async createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntent> {
    await this.#kernel.admitWrite('POST /v1/payment_intents')
    assertAmount(input.amount)
    const currency = input.currency.toLowerCase()
    if (!methodTakesCurrency(input.paymentMethod, currency)) {
      throw new PaymentProviderError('unsupported_combination', `${input.paymentMethod} does not take ${currency}`, {
        param: 'currency',
      })
    }
    return this.#transaction(async (trx) =>
      this.#idempotent(trx, input.idempotencyKey, 'create_payment_intent', input, async () => {
        const id = newSandboxId('pi')
        const now = this.#now()
        const row = await trx
          .insertInto('sandbox_payment_intents')
          .values({
            id,
            client_secret: `${id}_secret_${randomBytes(18).toString('base64url')}`,
            amount: input.amount,
            currency,
            payment_method: input.paymentMethod,
            status: 'requires_payment_method',
            transaction_id: input.transactionId,
            metadata: JSON.stringify({ ...input.metadata, transaction_id: input.transactionId }),
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        await this.#emit(trx, 'payment_intent.created', intentObject(row))
        return toPaymentIntent(row)
      }),
    )
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntent> {
    const row = await this.#kernel.db.selectFrom('sandbox_payment_intents').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw new PaymentProviderError('not_found', `No such payment intent: ${id}`)
    return toPaymentIntent(row)
  }

  async cancelPaymentIntent(input: { paymentIntentId: string; idempotencyKey: string }): Promise<PaymentIntent> {
    await this.#kernel.admitWrite('POST /v1/payment_intents/:id/cancel')
    return this.#transaction(async (trx) =>
      this.#idempotent(trx, input.idempotencyKey, 'cancel_payment_intent', input, async () => {
        const row = await lockIntent(trx, input.paymentIntentId)
        if (row.status === 'canceled') return toPaymentIntent(row)
        if (row.status !== 'requires_payment_method' && row.status !== 'requires_action') {
          throw new PaymentProviderError('invalid_state', `A ${row.status} payment intent cannot be canceled`)
        }
        const canceled = await this.#updateIntent(trx, row.id, { status: 'canceled', next_action: null })
        await this.#emit(trx, 'payment_intent.canceled', intentObject(canceled))
        return toPaymentIntent(canceled)
      }),
    )
  }

  /**
   * The browser's confirmation (the sandbox's Stripe.js), authorised by the
   * client secret. A declined card answers the intent with
   * `last_payment_error` and status `requires_payment_method`, ready for
   * another attempt, as Stripe's does.
   */
  async confirmPaymentIntent(id: string, input: ConfirmInput): Promise<PaymentIntent> {
    return this.#transaction(async (trx) => {
      const row = await lockIntent(trx, id)
      if (!secretMatches(row.client_secret, input.clientSecret)) {
        throw new PaymentProviderError('not_found', `No such payment intent: ${id}`)
      }
      const confirmable = row.status === 'requires_payment_method' || (row.payment_method === 'p24' && row.status === 'requires_action')
      if (!confirmable) throw new PaymentProviderError('invalid_state', `The payment intent is ${row.status}`)
      switch (row.payment_method as PaymentMethodType) {
        case 'card': {
          if (!input.cardNumber)
            throw new PaymentProviderError('invalid_request', 'card_number is required for a card payment', { param: 'card_number' })
          const outcome = cardOutcome(input.cardNumber)
          if (outcome.kind !== 'succeed') return this.#fail(trx, row, outcome.error)
          if (outcome.later) await this.#options.disputes.schedule(trx, row.id, outcome.later)
          return this.#succeed(trx, row)
        }
        case 'sepa': {
          if (!input.iban) throw new PaymentProviderError('invalid_request', 'iban is required for a SEPA payment', { param: 'iban' })
          const outcome = ibanOutcome(input.iban)
          if (outcome.kind === 'invalid') return this.#fail(trx, row, outcome.error)
          const processing = await this.#updateIntent(trx, row.id, {
            status: 'processing',
            last_payment_error: null,
            pending_outcome: outcome.eventually,
          })
          await this.#emit(trx, 'payment_intent.processing', intentObject(processing))
          await this.#kernel.jobs.send(
            paymentQueues.settlePayment,
            { paymentIntentId: row.id },
            { db: trx, startAfter: this.#options.sepaDelaySeconds },
          )
          return toPaymentIntent(processing)
        }
        case 'p24': {
          if (input.p24Outcome === 'succeeded') return this.#succeed(trx, row)
          if (input.p24Outcome === 'failed') {
            return this.#fail(trx, row, {
              code: 'payment_failed',
              declineCode: 'p24_declined',
              message: 'The bank did not authorise the payment.',
            })
          }
          const returnUrl = input.returnUrl ?? '/transactions'
          if (!isSafeReturnUrl(returnUrl)) {
            throw new PaymentProviderError('invalid_request', 'return_url must be a path on this site', { param: 'return_url' })
          }
          const query = new URLSearchParams({ client_secret: row.client_secret, return_url: returnUrl })
          const nextAction = { type: 'redirect_to_url', url: `/sandbox/p24/${row.id}?${query.toString()}`, return_url: returnUrl }
          const waiting = await this.#updateIntent(trx, row.id, {
            status: 'requires_action',
            last_payment_error: null,
            next_action: JSON.stringify(nextAction),
          })
          await this.#emit(trx, 'payment_intent.requires_action', intentObject(waiting))
          return toPaymentIntent(waiting)
        }
        default:
          throw new PaymentProviderError('invalid_request', `Unknown payment method ${row.payment_method}`)
      }
    })
  }

  /** For the P24 page: the intent, if the client secret is its own. */
  async retrieveForClient(id: string, clientSecret: string): Promise<PaymentIntent> {
    const row = await this.#kernel.db.selectFrom('sandbox_payment_intents').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row || !secretMatches(row.client_secret, clientSecret))
      throw new PaymentProviderError('not_found', `No such payment intent: ${id}`)
    return toPaymentIntent(row)
  }

  async refund(input: { paymentIntentId: string; amount: number; idempotencyKey: string }): Promise<Refund> {
    await this.#kernel.admitWrite('POST /v1/refunds')
    assertAmount(input.amount)
    return this.#transaction(async (trx) =>
      this.#idempotent(trx, input.idempotencyKey, 'refund', input, async () => {
        const intent = await lockIntent(trx, input.paymentIntentId)
        if (intent.status !== 'succeeded') throw new PaymentProviderError('invalid_state', `A ${intent.status} payment cannot be refunded`)
        if (intent.amount_refunded + input.amount > intent.amount) {
          throw new PaymentProviderError(
            'amount_too_large',
            `Refund of ${input.amount} exceeds what is left (${intent.amount - intent.amount_refunded})`,
          )
        }
        const now = this.#now()
        // As on Stripe: a card refund is settled when it is made; a refund to a bank (SEPA, P24) waits for the bank.
        const settledAtOnce = intent.payment_method === 'card'
        // Reserved now so that two refunds cannot together exceed the payment; given back if the refund fails.
        await trx
          .updateTable('sandbox_payment_intents')
          .set({ amount_refunded: intent.amount_refunded + input.amount, updated_at: now })
          .where('id', '=', intent.id)
          .execute()
        const refund = await trx
          .insertInto('sandbox_refunds')
          .values({
            id: newSandboxId('re'),
            payment_intent_id: intent.id,
            amount: input.amount,
            currency: intent.currency,
            status: settledAtOnce ? 'succeeded' : 'pending',
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        // Stripe tells every refund with `refund.created` (API 2024-10-28 on); a pending one settles later with `refund.updated`.
        await this.#emit(trx, 'refund.created', refundObject(refund, intent))
        if (!settledAtOnce) {
          await this.#kernel.jobs.send(
            paymentQueues.settleRefund,
            { refundId: refund.id },
            { db: trx, startAfter: this.#options.refundDelaySeconds },
          )
        }
        return toRefund(refund)
      }),
    )
  }

  async transfer(input: TransferInput): Promise<Transfer> {
    await this.#kernel.admitWrite('POST /v1/transfers')
    assertAmount(input.amount)
    return this.#transaction(async (trx) =>
      this.#idempotent(trx, input.idempotencyKey, 'transfer', input, async () => {
        const account = await trx.selectFrom('sandbox_accounts').select('id').where('id', '=', input.destinationAccount).executeTakeFirst()
        if (!account) throw new PaymentProviderError('not_found', `No such account: ${input.destinationAccount}`)
        const transfer = await trx
          .insertInto('sandbox_transfers')
          .values({
            id: newSandboxId('tr'),
            destination_account: account.id,
            amount: input.amount,
            currency: input.currency.toLowerCase(),
            transaction_id: input.transactionId,
            created_at: this.#now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        // Like Stripe: a transfer lands in the connected account's balance at once; the news still comes by webhook.
        await this.#emit(trx, 'transfer.created', {
          id: transfer.id,
          object: 'transfer',
          amount: transfer.amount,
          currency: transfer.currency,
          destination: transfer.destination_account,
          metadata: { transaction_id: transfer.transaction_id },
        })
        await this.#options.payouts.schedulePayoutRun(trx, account.id)
        return {
          id: transfer.id,
          amount: transfer.amount,
          currency: transfer.currency,
          destinationAccount: transfer.destination_account,
          transactionId: transfer.transaction_id,
        }
      }),
    )
  }

  /**
   * Stripe's transfer reversal: takes back from the transaction's
   * transfers, newest first, what they still hold; the connected account's
   * balance goes down by it (and may go below zero, as on Stripe).
   */
  async reverseTransfer(input: {
    transactionId: string
    amount: number
    currency: string
    idempotencyKey: string
  }): Promise<{ id: string; amount: number }> {
    await this.#kernel.admitWrite('POST /v1/transfers/:id/reversals')
    assertAmount(input.amount)
    return this.#transaction(async (trx) =>
      this.#idempotent(trx, input.idempotencyKey, 'reverse_transfer', input, async () => {
        const transfers = await trx
          .selectFrom('sandbox_transfers')
          .selectAll()
          .where('transaction_id', '=', input.transactionId)
          .where('currency', '=', input.currency.toLowerCase())
          .orderBy('created_at', 'desc')
          .forUpdate()
          .execute()
        let left = input.amount
        let first: { id: string } | null = null
        for (const transfer of transfers) {
          const reversed = await trx
            .selectFrom('sandbox_transfer_reversals')
            .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount'), eb.lit(0)).as('total'))
            .where('transfer_id', '=', transfer.id)
            .executeTakeFirstOrThrow()
          const piece = Math.min(left, transfer.amount - Number(reversed.total))
          if (piece <= 0) continue
          const reversal = await trx
            .insertInto('sandbox_transfer_reversals')
            .values({ id: newSandboxId('trr'), transfer_id: transfer.id, amount: piece, created_at: this.#now() })
            .returningAll()
            .executeTakeFirstOrThrow()
          first ??= reversal
          await this.#emit(trx, 'transfer.reversed', {
            id: transfer.id,
            object: 'transfer',
            amount: transfer.amount,
            amount_reversed: Number(reversed.total) + piece,
            currency: transfer.currency,
            destination: transfer.destination_account,
            metadata: { transaction_id: transfer.transaction_id },
          })
          left -= piece
          if (left === 0) break
        }
        if (!first) throw new PaymentProviderError('invalid_state', `Transaction ${input.transactionId} has no transfer left to reverse`)
        return { id: first.id, amount: input.amount - left }
      }),
    )
  }

  retrieveDispute(id: string): Promise<Dispute> {
    return this.#options.disputes.retrieve(id)
  }

  submitDisputeEvidence(input: { disputeId: string; evidence: DisputeEvidence }): Promise<Dispute> {
    return this.#options.disputes.submitEvidence(input.disputeId, input.evidence)
  }

  acceptDispute(disputeId: string): Promise<Dispute> {
    return this.#options.disputes.accept(disputeId)
  }

  /** The sandbox's balance movements (sandbox-balance.ts). */
  listBalanceMovements(range: { from: Date; to: Date }): Promise<BalanceMovement[]> {
    return sandboxBalanceMovements(this.#kernel.db, range)
  }

  async #succeed(trx: Db, row: IntentRow): Promise<PaymentIntent> {
    const succeeded = await this.#updateIntent(trx, row.id, {
      status: 'succeeded',
      last_payment_error: null,
      next_action: null,
      pending_outcome: null,
      succeeded_at: this.#now(),
    })
    await this.#emit(trx, 'payment_intent.succeeded', intentObject(succeeded))
    return toPaymentIntent(succeeded)
  }

  async #fail(trx: Db, row: IntentRow, error: DeclineDetails): Promise<PaymentIntent> {
    const failed = await this.#updateIntent(trx, row.id, {
      status: 'requires_payment_method',
      last_payment_error: JSON.stringify({ code: error.code, decline_code: error.declineCode, message: error.message }),
      next_action: null,
      pending_outcome: null,
    })
    await this.#emit(trx, 'payment_intent.payment_failed', intentObject(failed))
    return toPaymentIntent(failed)
  }

  /** The SEPA debit's outcome, when the bank would answer. Re-checked under the row lock: a retry finds it done. */
  async #settlePayment(paymentIntentId: string): Promise<void> {
    await this.#transaction(async (trx) => {
      const row = await lockIntent(trx, paymentIntentId)
      if (row.status !== 'processing') return
      if (row.pending_outcome === 'fail') await this.#fail(trx, row, sepaFailure)
      else await this.#succeed(trx, row)
    })
  }

  async #settleRefund(refundId: string): Promise<void> {
    await this.#transaction(async (trx) => {
      const refund = await trx.selectFrom('sandbox_refunds').selectAll().where('id', '=', refundId).forUpdate().executeTakeFirst()
      if (!refund || refund.status !== 'pending') return
      const intent = await lockIntent(trx, refund.payment_intent_id)
      const settled = await trx
        .updateTable('sandbox_refunds')
        .set({ status: 'succeeded', updated_at: this.#now() })
        .where('id', '=', refund.id)
        .returningAll()
        .executeTakeFirstOrThrow()
      await this.#emit(trx, 'refund.updated', refundObject(settled, intent))
    })
  }

  #emit(trx: Db, type: string, object: Record<string, unknown>): Promise<void> {
    return this.#kernel.emit(trx, type, object)
  }

  async #updateIntent(
    trx: Db,
    id: string,
    changes: {
      status: PaymentIntentStatus
      last_payment_error?: string | null
      next_action?: string | null
      pending_outcome?: string | null
      succeeded_at?: Date
    },
  ): Promise<IntentRow> {
    return trx
      .updateTable('sandbox_payment_intents')
      .set({ ...changes, updated_at: this.#now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  #idempotent<T>(trx: Db, key: string, operation: string, request: object, run: () => Promise<T>): Promise<T> {
    return this.#kernel.idempotent(trx, key, operation, request, run)
  }

  #transaction<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return this.#kernel.transaction(work)
  }

  #now(): Date {
    return this.#kernel.now()
  }
}

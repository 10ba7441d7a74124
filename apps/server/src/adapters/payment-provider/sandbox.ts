import { randomBytes } from 'node:crypto'
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database, SandboxPaymentIntentsTable, SandboxRefundsTable } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import {
  type Balance,
  type ConnectedAccount,
  type CreatePaymentIntentInput,
  type PaymentError,
  type PaymentIntent,
  type PaymentIntentStatus,
  type PaymentMethodType,
  type PaymentProvider,
  type TaxIdentifiersInput,
  PaymentProviderError,
  type Refund,
  type Transfer,
  type TransferRecord,
  type AccountProfile,
  type AccountVerification,
  type ExternalBankAccountInput,
  type Payout,
  type UploadIdentityDocumentInput,
  type VerificationSession,
} from './port.ts'
import type { DocumentStore } from '../document-store/port.ts'
import { SandboxConnect } from './sandbox-connect.ts'
import { SandboxIdentity } from './sandbox-identity.ts'
import { isSafeReturnUrl } from '../../http/return-url.ts'
import { deliverWebhookQueue, newSandboxId, SandboxKernel, secretMatches } from './sandbox-kernel.ts'
import { cardOutcome, type DeclineDetails, ibanOutcome, sepaFailure } from './sandbox-test-data.ts'

/**
 * A stateful simulated payment processor with Stripe's semantics: intents
 * that confirm synchronously (cards), after a delay (SEPA) or after a
 * redirect (P24); refunds that settle later; connected accounts whose
 * balance transfers credit; idempotency keys; and every change announced by
 * a signed webhook, delivered asynchronously with retries. Its state lives
 * in its own `sandbox_*` tables, which nothing else reads.
 */
export const sandboxQueues = {
  deliverWebhook: deliverWebhookQueue,
  settlePayment: 'sandbox-settle-payment',
  settleRefund: 'sandbox-settle-refund',
} as const

export interface SandboxOptions {
  db: Kysely<Database>
  jobs: JobQueue
  clock: Clock
  publishableKey: string
  sepaDelaySeconds: number
  refundDelaySeconds: number
  /** Where received identity files are kept: local files or S3, never served. */
  documents: DocumentStore
  /** How long a document is kept once its check has a result (0: deleted at once). */
  documentRetentionSeconds: number
  documentCheckSeconds: number
  payoutDelaySeconds: number
  payoutArrivalSeconds: number
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

/** Sends one signed event to the webhook endpoint; resolves with the HTTP status. */
export type WebhookDeliverer = (event: Record<string, unknown>) => Promise<number>

type IntentRow = Selectable<SandboxPaymentIntentsTable>
type RefundRow = Selectable<SandboxRefundsTable>
type Db = Transaction<Database>

const stripeMethodNames: Record<PaymentMethodType, string> = { card: 'card', sepa: 'sepa_debit', p24: 'p24' }
const methodCurrencies: Partial<Record<PaymentMethodType, readonly string[]>> = { sepa: ['eur'], p24: ['eur', 'pln'] }

export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox' as const
  readonly publishableKey: string
  readonly #options: SandboxOptions
  readonly #kernel: SandboxKernel
  readonly #connect: SandboxConnect
  /** Stripe Identity's twin; its hosted page is in sandbox-identity-routes.ts. */
  readonly identity: SandboxIdentity

  constructor(options: SandboxOptions) {
    this.#options = options
    this.publishableKey = options.publishableKey
    this.#kernel = new SandboxKernel(options)
    this.#connect = new SandboxConnect(this.#kernel, options)
    this.identity = new SandboxIdentity(this.#kernel, { checkSeconds: options.documentCheckSeconds })
  }

  /** Creates the sandbox's queues; call once at start-up, before anything is sent. */
  async createQueues(): Promise<void> {
    const { jobs } = this.#options
    // A webhook endpoint that is down is retried with backoff for about an hour, like Stripe (which goes on for days).
    await jobs.createQueue(sandboxQueues.deliverWebhook, { retryLimit: 12, retryDelay: 2, retryBackoff: true, concurrency: 5 })
    await jobs.createQueue(sandboxQueues.settlePayment, { retryLimit: 10, retryDelay: 5 })
    await jobs.createQueue(sandboxQueues.settleRefund, { retryLimit: 10, retryDelay: 5 })
    await this.#connect.createQueues()
    await this.identity.createQueues()
  }

  /** Starts the sandbox's workers; `deliver` posts an event to the webhook endpoint. */
  async startWorkers(deliver: WebhookDeliverer): Promise<void> {
    const { jobs } = this.#options
    await jobs.work<{ eventId: string }>(sandboxQueues.deliverWebhook, (data) => this.#deliverWebhook(data.eventId, deliver))
    await jobs.work<{ paymentIntentId: string }>(sandboxQueues.settlePayment, (data) => this.#settlePayment(data.paymentIntentId))
    await jobs.work<{ refundId: string }>(sandboxQueues.settleRefund, (data) => this.#settleRefund(data.refundId))
    await this.#connect.startWorkers()
    await this.identity.startWorkers()
  }

  async createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntent> {
    assertAmount(input.amount)
    const currency = input.currency.toLowerCase()
    const allowed = methodCurrencies[input.paymentMethod]
    if (allowed && !allowed.includes(currency)) {
      throw new PaymentProviderError('invalid_request', `${input.paymentMethod} does not take ${currency}`)
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
    const row = await this.#options.db.selectFrom('sandbox_payment_intents').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw new PaymentProviderError('not_found', `No such payment intent: ${id}`)
    return toPaymentIntent(row)
  }

  async cancelPaymentIntent(input: { paymentIntentId: string; idempotencyKey: string }): Promise<PaymentIntent> {
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
          if (!input.cardNumber) throw new PaymentProviderError('invalid_request', 'card_number is required for a card payment', { param: 'card_number' })
          const outcome = cardOutcome(input.cardNumber)
          return outcome.kind === 'succeed' ? this.#succeed(trx, row) : this.#fail(trx, row, outcome.error)
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
          await this.#options.jobs.send(
            sandboxQueues.settlePayment,
            { paymentIntentId: row.id },
            { db: trx, startAfter: this.#options.sepaDelaySeconds },
          )
          return toPaymentIntent(processing)
        }
        case 'p24': {
          if (input.p24Outcome === 'succeeded') return this.#succeed(trx, row)
          if (input.p24Outcome === 'failed') {
            return this.#fail(trx, row, { code: 'payment_failed', declineCode: 'p24_declined', message: 'The bank did not authorise the payment.' })
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
    const row = await this.#options.db.selectFrom('sandbox_payment_intents').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row || !secretMatches(row.client_secret, clientSecret)) throw new PaymentProviderError('not_found', `No such payment intent: ${id}`)
    return toPaymentIntent(row)
  }

  async refund(input: { paymentIntentId: string; amount: number; idempotencyKey: string }): Promise<Refund> {
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
            status: 'pending',
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        await this.#emit(trx, 'refund.created', refundObject(refund, intent))
        await this.#options.jobs.send(
          sandboxQueues.settleRefund,
          { refundId: refund.id },
          { db: trx, startAfter: this.#options.refundDelaySeconds },
        )
        return toRefund(refund)
      }),
    )
  }

  async createConnectedAccount(input: {
    userId: string
    email: string
    country: string
    idempotencyKey: string
  }): Promise<ConnectedAccount> {
    return this.#transaction(async (trx) =>
      this.#idempotent(trx, input.idempotencyKey, 'create_account', input, async () => {
        const account = await trx
          .insertInto('sandbox_accounts')
          .values({
            id: newSandboxId('acct'),
            user_id: input.userId,
            email: input.email,
            country: input.country.toLowerCase(),
            created_at: this.#now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        await this.#emit(trx, 'account.updated', { id: account.id, object: 'account', country: account.country, email: account.email, payouts_enabled: true, metadata: { user_id: account.user_id } })
        return { id: account.id, email: account.email, country: account.country }
      }),
    )
  }

  async transfer(input: {
    amount: number
    currency: string
    destinationAccount: string
    transactionId: string
    idempotencyKey: string
  }): Promise<Transfer> {
    assertAmount(input.amount)
    return this.#transaction(async (trx) =>
      this.#idempotent(trx, input.idempotencyKey, 'transfer', input, async () => {
        const account = await trx
          .selectFrom('sandbox_accounts')
          .select('id')
          .where('id', '=', input.destinationAccount)
          .executeTakeFirst()
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
        await this.#connect.schedulePayoutRun(trx, account.id)
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

  getBalance(accountId: string): Promise<Balance> {
    return this.#connect.getBalance(accountId)
  }

  async findConnectedAccount(userId: string): Promise<ConnectedAccount | null> {
    const account = await this.#options.db
      .selectFrom('sandbox_accounts')
      .select(['id', 'email', 'country'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst()
    return account ?? null
  }

  async listTransfers(accountId: string): Promise<TransferRecord[]> {
    const rows = await this.#options.db
      .selectFrom('sandbox_transfers')
      .selectAll()
      .where('destination_account', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
    return rows.map((row) => ({
      id: row.id,
      amount: row.amount,
      currency: row.currency,
      destinationAccount: row.destination_account,
      transactionId: row.transaction_id,
      created: row.created_at,
    }))
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
    return this.identity.createSession(input)
  }

  retrieveVerificationSession(id: string, returnUrl: string): Promise<VerificationSession> {
    return this.identity.retrieve(id, returnUrl)
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

  async #succeed(trx: Db, row: IntentRow): Promise<PaymentIntent> {
    const succeeded = await this.#updateIntent(trx, row.id, {
      status: 'succeeded',
      last_payment_error: null,
      next_action: null,
      pending_outcome: null,
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

  async #deliverWebhook(eventId: string, deliver: WebhookDeliverer): Promise<void> {
    const { db } = this.#options
    const delivery = await db.selectFrom('sandbox_webhook_deliveries').selectAll().where('event_id', '=', eventId).executeTakeFirst()
    if (!delivery || delivery.delivered_at) return
    let status = 0
    try {
      status = await deliver(delivery.payload)
    } finally {
      await db
        .updateTable('sandbox_webhook_deliveries')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          last_status: status,
          delivered_at: status >= 200 && status < 300 ? this.#now() : null,
        }))
        .where('event_id', '=', eventId)
        .execute()
    }
    if (status < 200 || status >= 300) throw new Error(`Webhook ${delivery.type} ${eventId} answered ${status}`)
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

async function lockIntent(trx: Db, id: string): Promise<IntentRow> {
  const row = await trx.selectFrom('sandbox_payment_intents').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
  if (!row) throw new PaymentProviderError('not_found', `No such payment intent: ${id}`)
  return row
}

function toPaymentIntent(row: IntentRow): PaymentIntent {
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
      nextAction?.url && nextAction.return_url
        ? { type: 'redirect_to_url', url: nextAction.url, returnUrl: nextAction.return_url }
        : null,
  }
}

function toPaymentError(stored: Record<string, string | null> | null): PaymentError | null {
  if (!stored) return null
  const code = stored.code ?? 'payment_failed'
  const declineCode = stored.decline_code
  return {
    code,
    reason: declineCode && declineCode !== 'generic_decline' ? declineCode : code,
    message: stored.message ?? '',
  }
}

function toRefund(row: RefundRow): Refund {
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
function intentObject(row: IntentRow): Record<string, unknown> {
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

function refundObject(row: RefundRow, intent: IntentRow): Record<string, unknown> {
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



function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new PaymentProviderError('invalid_request', 'The amount must be a positive integer in minor units')
  }
}

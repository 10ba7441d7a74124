import {
  adminChargebackListSchema,
  adminChargebackSchema,
  chargebackActionBodySchema,
  chargebackListQuerySchema,
  chargebackParamsSchema,
  recoverChargebackBodySchema,
  sandboxDecideDisputeBodySchema,
  sandboxDisputeSchema,
  sandboxOpenDisputeBodySchema,
} from '@pactum/contracts/chargebacks'
import { anyTransactionSchema } from '@pactum/contracts/f2f-transactions'
import { adminActionBodySchema } from '@pactum/contracts/transactions'
import { errorBodySchema } from '@pactum/contracts/errors'
import type { DisputeNews } from '@pactum/domain/transactions/chargeback'
import type { TransactionEvent } from '@pactum/domain/transactions/transaction'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Dispute } from '../../adapters/payment-provider/payments-port.ts'
import type { SandboxDisputes } from '../../adapters/payment-provider/sandbox-disputes.ts'
import { AppError } from '../../errors.ts'
import { PaymentProviderError } from '../../adapters/payment-provider/provider-error.ts'
import { adminOf } from '../../http/plugins/authentication.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import { actAsAdmin, actAsAdminInSteps } from '../transactions/act-as-party.ts'
import type { TransactionDeps } from '../transactions/engine/apply-event.ts'
import type { TransactionRow } from '../transactions/engine/transaction-state.ts'
import { findById } from '../transactions/transactions-repository.ts'
import { idParams } from '../transactions/routes/route-parts.ts'
import { toAnyTransactionView } from '../transactions/transaction-view.ts'
import { findByDispute, listChargebacks } from './chargebacks-repository.ts'
import { toAdminChargeback } from './chargeback-view.ts'
import { buildDisputeEvidence } from './dispute-evidence.ts'

const secured = { security: [{ bearer: [] }], tags: ['admin'] }
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema }

/**
 * The admin console's card disputes (issue 34, docs/decisions/109): the
 * list with each one's evidence deadline, the evidence sent to the bank
 * through the provider, accepting a dispute, recovering a loss from the
 * seller, and clearing an early fraud warning. Each action is the
 * provider's call first, then its answer applied through the one writer
 * with the admin's reason; the provider's webhook repeats it harmlessly.
 * `sandboxDisputes` (the sandbox only) lets an admin open and decide
 * disputes, the part the card networks play.
 */
export function chargebackRoutes(deps: () => TransactionDeps, sandboxDisputes: SandboxDisputes | null): FastifyPluginAsyncZod {
  return async (app) => {
    const answer = (row: TransactionRow) => {
      const view = toAdminChargeback(row)
      if (!view) throw new AppError('not_found', 'No such card dispute')
      return view
    }
    const disputed = async (id: string): Promise<TransactionRow> => {
      const row = await findByDispute(app.services.db, id)
      if (!row) throw new AppError('not_found', 'No such card dispute')
      return row
    }
    /**
     * The admin's decision written to the history with the reason, and the
     * provider's answer applied as the admin's step, in one database
     * transaction. The decision is written even when the provider's webhook
     * brought the same news first and the answer changes nothing.
     */
    const recordWithAnswer = (admin: CurrentUser, row: TransactionRow, decision: TransactionEvent, dispute: Dispute, reason: string) => {
      const news = toNews(dispute)
      const answer: TransactionEvent[] = news ? [{ type: 'dispute_changed', dispute: news }] : []
      return actAsAdminInSteps(deps(), admin, row.id, [decision, ...answer], reason)
    }

    app.get(
      '/admin/chargebacks',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: 'Card disputes on the sales’ payments, the earliest evidence deadline first',
          querystring: chargebackListQuerySchema,
          response: { 200: adminChargebackListSchema, ...errors },
        },
      },
      async (request) => {
        adminOf(request)
        const rows = await app.services.replicaReads.read((db) => listChargebacks(db, request.query.state))
        return rows.map(answer)
      },
    )

    app.post(
      '/admin/chargebacks/:id/evidence',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: "Send the sale's record to the bank as evidence (timeline, tracking, conversation, case file) and submit it",
          params: chargebackParamsSchema,
          body: chargebackActionBodySchema,
          response: { 200: adminChargebackSchema, ...errors },
        },
      },
      async (request) => {
        const admin = adminOf(request)
        const row = await disputed(request.params.id)
        if (row.chargeback?.status !== 'needs_response') {
          throw new AppError('no_open_chargeback', 'Evidence can be sent only while the dispute needs a response')
        }
        const { db, payments, clock } = app.services
        const evidence = await buildDisputeEvidence(db, row, clock.now())
        const dispute = await providerCall(() => payments.submitDisputeEvidence({ disputeId: request.params.id, evidence }))
        const updated = await recordWithAnswer(admin, row, { type: 'chargeback_evidence_submitted' }, dispute, request.body.reason)
        request.log.info({ disputeId: request.params.id, adminId: admin.id }, 'dispute evidence submitted')
        return answer(updated)
      },
    )

    app.post(
      '/admin/chargebacks/:id/accept',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: 'Accept the dispute: it is lost at once, as the bank decided for the buyer',
          params: chargebackParamsSchema,
          body: chargebackActionBodySchema,
          response: { 200: adminChargebackSchema, ...errors },
        },
      },
      async (request) => {
        const admin = adminOf(request)
        const row = await disputed(request.params.id)
        if (row.chargeback?.closed_at !== null) throw new AppError('no_open_chargeback', 'The dispute is already closed')
        const dispute = await providerCall(() => app.services.payments.acceptDispute(request.params.id))
        const updated = await recordWithAnswer(admin, row, { type: 'chargeback_accepted' }, dispute, request.body.reason)
        request.log.info({ disputeId: request.params.id, adminId: admin.id }, 'dispute accepted')
        return answer(updated)
      },
    )

    app.post(
      '/admin/chargebacks/:id/recover',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: "Take back from the seller's account (a transfer reversal) what a dispute lost after the release cost",
          params: chargebackParamsSchema,
          body: recoverChargebackBodySchema,
          response: { 200: adminChargebackSchema, ...errors },
        },
      },
      async (request) => {
        const admin = adminOf(request)
        const row = await disputed(request.params.id)
        const held = await sellerAvailable(row)
        if (request.body.amount > held) {
          throw new AppError('recovery_too_high', `The seller's account holds ${held} of this currency`, {
            details: { available: held },
          })
        }
        const updated = await actAsAdmin(
          deps(),
          admin,
          row.id,
          { type: 'recover_chargeback', amount: request.body.amount },
          request.body.reason,
        )
        request.log.info(
          { disputeId: request.params.id, adminId: admin.id, amount: request.body.amount },
          'chargeback recovered from the seller',
        )
        return answer(updated)
      },
    )

    app.post(
      '/admin/transactions/:id/clear_fraud_warning',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: 'Clear the early fraud warning that holds the release (the reason says what was checked)',
          params: idParams,
          body: adminActionBodySchema,
          response: { 200: anyTransactionSchema, ...errors },
        },
      },
      async (request) => {
        const admin = adminOf(request)
        const row = await actAsAdmin(deps(), admin, request.params.id, { type: 'clear_fraud_warning' }, request.body.reason)
        return toAnyTransactionView(
          row,
          { id: admin.id, asAdmin: true },
          {
            now: deps().clock.now(),
            policy: deps().policy,
            publicUrl: app.services.config.publicUrl,
          },
        )
      },
    )

    app.post(
      '/admin/sandbox/disputes',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: "Sandbox only: the buyer's bank opens a dispute on one of a sale's payments",
          body: sandboxOpenDisputeBodySchema,
          response: { 200: sandboxDisputeSchema, ...errors },
        },
      },
      async (request) => {
        adminOf(request)
        const sandbox = onlySandbox()
        const row = await findById(app.services.db, request.body.transaction_id)
        const paymentIntentId = request.body.payment === 'remainder' ? row.remainder_payment_intent_id : row.payment_intent_id
        if (!paymentIntentId) throw new AppError('not_paid', 'That payment was never made')
        const dispute = await providerCall(() =>
          sandbox.open(paymentIntentId, {
            reason: request.body.reason,
            ...(request.body.amount !== undefined ? { amount: request.body.amount } : {}),
          }),
        )
        return { id: dispute.id, status: dispute.status, amount: dispute.amount, currency: dispute.currency }
      },
    )

    app.post(
      '/admin/sandbox/disputes/:id/decide',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: "Sandbox only: the bank's decision on a dispute",
          params: chargebackParamsSchema,
          body: sandboxDecideDisputeBodySchema,
          response: { 200: sandboxDisputeSchema, ...errors },
        },
      },
      async (request) => {
        adminOf(request)
        const dispute = await providerCall(() => onlySandbox().decide(request.params.id, request.body.outcome))
        return { id: dispute.id, status: dispute.status, amount: dispute.amount, currency: dispute.currency }
      },
    )

    function onlySandbox(): SandboxDisputes {
      if (!sandboxDisputes) throw new AppError('not_found', 'Disputes are opened by the card networks, not here')
      return sandboxDisputes
    }

    /** What the seller's account holds now in the sale's currency; nothing without an account. */
    async function sellerAvailable(row: TransactionRow): Promise<number> {
      if (!row.seller_id) return 0
      const account = await app.services.connectedAccounts.findConnectedAccount(row.seller_id)
      if (!account) return 0
      const balance = await app.services.connectedAccounts.getBalance(account.id)
      return Math.max(0, balance.available.find((money) => money.currency === row.currency)?.amount ?? 0)
    }
  }
}

/**
 * The provider's refusals in the API's words: a dispute it does not know
 * (404), one no longer open to the step (409), input it refused (400).
 * Anything else (the provider down) stays a 5xx the admin may retry.
 */
async function providerCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error
    if (error.code === 'not_found') throw new AppError('not_found', 'No such card dispute at the payment provider')
    if (error.code === 'invalid_state') throw new AppError('no_open_chargeback', error.message)
    if (error.code === 'invalid_request' || error.code === 'amount_too_large') {
      throw new AppError('validation_failed', error.message, error.param ? { details: { field: error.param } } : undefined)
    }
    throw error
  }
}

/** The provider's dispute as the state machine's news; an inquiry (`warning_*`) or a prevented one is none. */
function toNews(dispute: Dispute): DisputeNews | null {
  const status = dispute.status
  if (status !== 'needs_response' && status !== 'under_review' && status !== 'won' && status !== 'lost') return null
  return {
    id: dispute.id,
    paymentIntentId: dispute.paymentIntentId,
    status,
    amount: dispute.amount,
    reason: dispute.reason,
    evidenceDueBy: dispute.evidenceDueBy,
    fee: dispute.fee,
  }
}

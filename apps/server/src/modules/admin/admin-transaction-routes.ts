import { adminTransactionDetailSchema, adminTransactionQuerySchema } from '@pactum/contracts/admin'
import { anyTransactionListSchema, anyTransactionSchema } from '@pactum/contracts/f2f-transactions'
import { adminActionBodySchema, releaseFundsQuerySchema } from '@pactum/contracts/transactions'
import { caseQueueQuerySchema, caseQueueSchema, decideBodySchema } from '@pactum/contracts/disputes'
import { toCaseView } from '../disputes/case-view.ts'
import { listEscalatedCases } from '../disputes/disputes-repository.ts'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { emailsOf, eventsOf, ledgerEntriesOf, listAllTransactions, notificationsOf, providerEventsOf } from './admin-repository.ts'
import { toAuditEventView } from './admin-views.ts'
import type { TransactionEvent } from '@pactum/domain/transactions/transaction'
import { actAsAdmin } from '../transactions/act-as-party.ts'
import type { TransactionDeps } from '../transactions/engine/apply-event.ts'
import { toAnyTransactionView, type ViewContext } from '../transactions/transaction-view.ts'
import { toState } from '../transactions/engine/transaction-state.ts'
import { availableAdminSteps } from '@pactum/domain/transactions/available-actions'
import { adminOf } from '../../http/plugins/authentication.ts'
import { findById } from '../transactions/transactions-repository.ts'
import { checkAfterId, idParams, transactionErrors } from '../transactions/routes/route-parts.ts'

const errors = transactionErrors
const secured = { security: [{ bearer: [] }], tags: ['admin'] }

/** Admin calls of spec §7; every action records who, when and why. */
export function adminTransactionRoutes(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy, publicUrl: app.services.config.publicUrl })
    /** An admin's action on one sale, with its reason: applied as the admin, answered as the admin sees the sale. */
    const act = async (request: FastifyRequest & { params: { id: string }; body: { reason: string } }, event: TransactionEvent) => {
      const admin = adminOf(request)
      const row = await actAsAdmin(
        { ...deps(), idempotency: request.idempotencyClaim },
        admin,
        request.params.id,
        event,
        request.body.reason,
      )
      return toAnyTransactionView(row, { id: admin.id, asAdmin: true }, context())
    }

    app.get(
      '/admin/transactions',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: 'Every transaction of both kinds, newest first; filters combine',
          querystring: adminTransactionQuerySchema,
          response: { 200: anyTransactionListSchema, ...errors },
        },
      },
      async (request) => {
        const admin = adminOf(request)
        const { limit, after_id: afterId, ...filters } = request.query
        checkAfterId(afterId)
        const rows = await app.services.replicaReads.read((db) => listAllTransactions(db, { ...filters, limit, afterId }))
        return rows.map((row) => toAnyTransactionView(row, { id: admin.id, asAdmin: true }, context()))
      },
    )

    app.get(
      '/admin/transactions/:id',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: 'One transaction with its history, ledger entries, provider events and e-mails',
          params: idParams,
          response: { 200: adminTransactionDetailSchema, ...errors },
        },
      },
      async (request) => {
        const admin = adminOf(request)
        const { db } = app.services
        const row = await findById(db, request.params.id)
        const [events, ledger, providerEvents, notifications, emails] = await Promise.all([
          eventsOf(db, row.id),
          ledgerEntriesOf(db, row.id),
          providerEventsOf(db, row.id),
          notificationsOf(db, row.id),
          emailsOf(db, [row.buyer_id, row.seller_id]),
        ])
        return {
          transaction: toAnyTransactionView(row, { id: admin.id, asAdmin: true }, context()),
          case: toCaseView(row),
          buyer_email: row.buyer_id ? (emails.get(row.buyer_id) ?? null) : null,
          seller_email: row.seller_id ? (emails.get(row.seller_id) ?? null) : null,
          fraud_warning: row.fraud_warning
            ? {
                id: row.fraud_warning.id,
                fraud_type: row.fraud_warning.fraud_type,
                received_at: row.fraud_warning.received_at,
                cleared_at: row.fraud_warning.cleared_at,
              }
            : null,
          available_steps: availableAdminSteps(toState(row), context().now, context().policy),
          events: events.map(toAuditEventView),
          ledger_entries: ledger.map((entry) => ({
            id: entry.id,
            kind: entry.kind,
            part: entry.part,
            reason: entry.reason,
            created_at: entry.created_at.toISOString(),
            postings: entry.postings,
          })),
          provider_events: providerEvents.map((event) => ({
            id: event.id,
            provider: event.provider,
            event_id: event.event_id,
            type: event.type,
            created: event.created.toISOString(),
            received_at: event.received_at.toISOString(),
            processed_at: event.processed_at?.toISOString() ?? null,
          })),
          notifications: notifications.map((mail) => ({
            ...mail,
            created_at: mail.created_at.toISOString(),
            sent_at: mail.sent_at?.toISOString() ?? null,
          })),
        }
      },
    )

    app.post(
      '/admin/transactions/:id/confirm_delivery',
      {
        onRequest: app.authenticateAdmin,
        preHandler: app.idempotent,
        schema: {
          ...secured,
          summary: 'Confirm delivery on the buyer’s behalf',
          params: idParams,
          body: adminActionBodySchema,
          response: { 200: anyTransactionSchema, ...errors },
        },
      },
      async (request) => act(request, { type: 'confirm_delivery' }),
    )

    app.post(
      '/admin/transactions/:id/release_funds',
      {
        onRequest: app.authenticateAdmin,
        preHandler: app.idempotent,
        schema: {
          ...secured,
          summary: 'Resolve a dispute (either kind): pay the seller, or refund the buyer',
          params: idParams,
          querystring: releaseFundsQuerySchema,
          body: adminActionBodySchema,
          response: { 200: anyTransactionSchema, ...errors },
        },
      },
      async (request) => act(request, { type: 'release_funds', to: request.query.to }),
    )

    app.post(
      '/admin/transactions/:id/decide',
      {
        onRequest: app.authenticateAdmin,
        preHandler: app.idempotent,
        schema: {
          ...secured,
          summary: 'Decide a case (either kind): full to either side or a split of the price; both parties receive the reason',
          params: idParams,
          body: decideBodySchema,
          response: { 200: anyTransactionSchema, ...errors },
        },
      },
      async (request) =>
        act(request, { type: 'decide', refundToBuyer: request.body.refund_to_buyer, releaseToSeller: request.body.release_to_seller }),
    )

    app.get(
      '/admin/cases',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: 'The cases waiting for an admin, oldest first',
          querystring: caseQueueQuerySchema,
          response: { 200: caseQueueSchema, ...errors },
        },
      },
      async (request) => {
        const rows = await app.services.replicaReads.read((db) => listEscalatedCases(db, request.query.limit))
        return rows.flatMap((row) => toCaseView(row) ?? [])
      },
    )
  }
}

import { anyTransactionListSchema, anyTransactionSchema } from '@pactum/contracts/f2f-transactions'
import { adminActionBodySchema, releaseFundsQuerySchema } from '@pactum/contracts/transactions'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { actAsAdmin } from '../../../services/transactions/act-as-party.ts'
import type { TransactionDeps } from '../../../transactions/apply-event.ts'
import { toAnyTransactionView, type ViewContext } from '../../../transactions/transaction-view.ts'
import { adminOf } from '../../plugins/authentication.ts'
import { checkAfterId, idParams, transactionErrors } from '../transactions/route-parts.ts'

const errors = transactionErrors
const secured = { security: [{ bearer: [] }], tags: ['admin'] }

/** Admin calls of spec §7; every action records who, when and why. */
export function adminTransactionRoutes(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy })

    app.get(
      '/admin/transactions',
      {
        onRequest: app.authenticateAdmin,
        schema: {
          ...secured,
          summary: 'Every transaction, newest first',
          querystring: z.object({
            limit: z.coerce.number().int().min(1).max(1000).default(1000),
            after_id: z.string().optional(),
            status: z.string().max(40).optional(),
          }),
          response: { 200: anyTransactionListSchema, ...errors },
        },
      },
      async (request) => {
        const admin = adminOf(request)
        const { limit, after_id: afterId, status } = request.query
        checkAfterId(afterId)
        let query = app.services.db.selectFrom('transactions').selectAll()
        if (afterId) query = query.where('id', '<', afterId)
        if (status) query = query.where('status', '=', status)
        const rows = await query.orderBy('id', 'desc').limit(limit).execute()
        return rows.map((row) => toAnyTransactionView(row, { id: admin.id, asAdmin: true }, context()))
      },
    )

    app.post(
      '/admin/transactions/:id/confirm_delivery',
      {
        onRequest: app.authenticateAdmin,
        preHandler: app.idempotent,
        schema: { ...secured, summary: 'Confirm delivery on the buyer’s behalf', params: idParams, body: adminActionBodySchema, response: { 200: anyTransactionSchema, ...errors } },
      },
      async (request) => {
        const admin = adminOf(request)
        const row = await actAsAdmin({ ...deps(), idempotency: request.idempotencyClaim }, admin, request.params.id, { type: 'confirm_delivery' }, request.body.reason)
        return toAnyTransactionView(row, { id: admin.id, asAdmin: true }, context())
      },
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
      async (request) => {
        const admin = adminOf(request)
        const row = await actAsAdmin({ ...deps(), idempotency: request.idempotencyClaim }, admin, request.params.id, { type: 'release_funds', to: request.query.to }, request.body.reason)
        return toAnyTransactionView(row, { id: admin.id, asAdmin: true }, context())
      },
    )
  }
}

import { anyStatusSchema } from '@pactum/contracts/admin'
import { errorBodySchema } from '@pactum/contracts/errors'
import { anyTransactionListSchema, anyTransactionSchema } from '@pactum/contracts/f2f-transactions'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../errors.ts'
import { apiKeyRateLimit, partnerClientOf, partnerSecured } from '../partner-clients/partner-caller-routes.ts'
import type { TransactionDeps } from '../transactions/engine/apply-event.ts'
import { checkAfterId } from '../transactions/routes/route-parts.ts'
import { toAnyTransactionView, type ViewContext } from '../transactions/transaction-view.ts'
import { clientTransaction, clientTransactions } from './partner-transactions-repository.ts'

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema }

const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  after_id: z.string().max(100).optional().meta({ description: 'the last id of the previous page' }),
  status: anyStatusSchema.optional(),
})

/**
 * A partner reads the transactions made under its client (issue 35 #3),
 * as the webhooks carry them: the view of someone who is neither party
 * (no join code, no actions). Another client's answer 404, as none.
 */
export function partnerTransactionRoutes(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy, publicUrl: app.services.config.publicUrl })
    const partnerView = { id: '' }

    app.get(
      '/partner/transactions',
      {
        config: apiKeyRateLimit,
        schema: {
          ...partnerSecured,
          summary: "Your client's transactions, newest first, 50 a page (after_id pages on)",
          querystring: listQuerySchema,
          response: { 200: anyTransactionListSchema, ...errors },
        },
      },
      async (request) => {
        const client = await partnerClientOf(app, request)
        checkAfterId(request.query.after_id)
        const rows = await clientTransactions(app.services.db, {
          clientId: client.id,
          afterId: request.query.after_id,
          status: request.query.status,
          limit: request.query.limit,
        })
        return rows.map((row) => toAnyTransactionView(row, partnerView, context()))
      },
    )

    app.get(
      '/partner/transactions/:id',
      {
        config: apiKeyRateLimit,
        schema: {
          ...partnerSecured,
          summary: 'One of your transactions',
          params: z.object({ id: z.uuid() }),
          response: { 200: anyTransactionSchema, ...errors },
        },
      },
      async (request) => {
        const client = await partnerClientOf(app, request)
        const row = await clientTransaction(app.services.db, client.id, request.params.id)
        if (!row) throw new AppError('not_found', 'No such transaction')
        return toAnyTransactionView(row, partnerView, context())
      },
    )
  }
}

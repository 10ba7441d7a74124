import { errorBodySchema } from '@pactum/contracts/errors'
import {
  chargeQuoteSchema,
  joinCodeQuerySchema,
  joinPreviewSchema,
  joinQuerySchema,
  transactionChargeQuerySchema,
  transactionSchema,
} from '@pactum/contracts/transactions'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { joinTransaction, previewJoin } from '../../../services/transactions/join-transaction.ts'
import { quoteOrRefuse } from '../../../services/transactions/quote.ts'
import type { TransactionDeps } from '../../../transactions/apply-event.ts'
import { toTransactionView, type ViewContext } from '../../../transactions/transaction-view.ts'
import { findForParty } from '../../../transactions/transactions-repository.ts'
import { userOf } from '../../plugins/authentication.ts'
import { toQuoteView } from './quote-view.ts'
import { idParams, joinRateLimit, transactionErrors } from './route-parts.ts'

const secured = { security: [{ bearer: [] }], tags: ['transactions'] }

/**
 * The calls of spec §7 only the online kind has: the fee quote for a new
 * price of a transaction, and the preview and join by the code in the query.
 * The calls both kinds share are in `kind-routes.ts`, the actions in
 * `action-routes.ts`.
 */
export function transactionRoutes(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy })

    app.get(
      '/transactions/:id/charge',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          summary: 'Fee quote for a new price or method of this transaction',
          params: idParams,
          querystring: transactionChargeQuerySchema,
          response: { 200: chargeQuoteSchema, ...transactionErrors },
        },
      },
      async (request) => {
        const row = await findForParty(app.services.db, request.params.id, userOf(request).id, 'online')
        return toQuoteView(quoteOrRefuse({ price: request.query.price, currency: row.currency, paymentMethod: request.query.payment_method }))
      },
    )

    app.get(
      '/transactions',
      {
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: {
          ...secured,
          summary: 'Preview the transaction behind a join code',
          querystring: joinCodeQuerySchema,
          response: { 200: joinPreviewSchema, ...transactionErrors, 429: errorBodySchema },
        },
      },
      async (request) => previewJoin(app.services.db, userOf(request), request.query.join_code),
    )

    app.put(
      '/transactions',
      {
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: {
          ...secured,
          summary: 'Join as the other party (optionally stating the terms shown)',
          querystring: joinQuerySchema,
          response: { 200: transactionSchema, ...transactionErrors, 429: errorBodySchema },
        },
      },
      async (request) => {
        const user = userOf(request)
        const { join_code: code, ...expected } = request.query
        return toTransactionView(await joinTransaction(deps(), user, code, 'online', expected), user, context())
      },
    )
  }
}

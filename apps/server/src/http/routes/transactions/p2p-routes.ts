import { errorBodySchema } from '@pactum/contracts/errors'
import { f2fJoinPreviewSchema, f2fTransactionSchema, remainderChargeQuerySchema } from '@pactum/contracts/f2f-transactions'
import { chargeQuoteSchema } from '@pactum/contracts/transactions'
import type { PaymentMethod } from '@pactum/domain/currencies'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { joinTransaction, previewF2fJoin } from '../../../services/transactions/join-transaction.ts'
import { quoteOrRefuse } from '../../../services/transactions/quote.ts'
import type { TransactionDeps } from '../../../transactions/apply-event.ts'
import { toF2fTransactionView, type ViewContext } from '../../../transactions/transaction-view.ts'
import { findForParty } from '../../../transactions/transactions-repository.ts'
import { userOf } from '../../plugins/authentication.ts'
import { toQuoteView } from './quote-view.ts'
import { idParams, joinRateLimit, transactionErrors } from './route-parts.ts'

const codeParams = z.object({ code: z.string().trim().min(1).max(32) })
const secured = { security: [{ bearer: [] }], tags: ['face-to-face'] }

/**
 * The calls of spec §7 only the face-to-face kind has, under /p2p: the fee
 * quote for the remainder of a total, and the preview and join by the code
 * in the path. The calls both kinds share are in `kind-routes.ts`, the
 * actions (deposit, price, handover, complaint, …) in `action-routes.ts`.
 */
export function p2pRoutes(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy })

    app.get(
      '/p2p/transactions/:id/charge',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          summary: 'Fee quote for the remainder of a total price (price is the total, deposit included)',
          params: idParams,
          querystring: remainderChargeQuerySchema,
          response: { 200: chargeQuoteSchema, ...transactionErrors },
        },
      },
      async (request) => {
        const row = await findForParty(app.services.db, request.params.id, userOf(request).id, 'f2f')
        const paymentMethod = request.query.payment_method ?? (row.payment_method as PaymentMethod | null) ?? 'card'
        const remainder = quoteOrRefuse({ price: request.query.price - row.price, currency: row.currency, paymentMethod })
        // The body names the total, as the caller did; the charge is the remainder's.
        return { ...toQuoteView(remainder), price: request.query.price }
      },
    )

    app.get(
      '/p2p/transactions_by_join_code/:code',
      {
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: {
          ...secured,
          summary: 'Preview the face-to-face transaction behind a join code',
          params: codeParams,
          response: { 200: f2fJoinPreviewSchema, ...transactionErrors, 429: errorBodySchema },
        },
      },
      async (request) => previewF2fJoin(app.services.db, userOf(request), request.params.code),
    )

    app.post(
      '/p2p/transactions_by_join_code/:code/join',
      {
        onRequest: app.authenticate,
        config: joinRateLimit,
        schema: { ...secured, summary: 'Join as the other party', params: codeParams, response: { 200: f2fTransactionSchema, ...transactionErrors, 429: errorBodySchema } },
      },
      async (request) => {
        const user = userOf(request)
        return toF2fTransactionView(await joinTransaction(deps(), user, request.params.code, 'f2f'), user, context())
      },
    )
  }
}

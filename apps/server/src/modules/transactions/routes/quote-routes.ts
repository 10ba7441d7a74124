import { errorBodySchema } from '@pactum/contracts/errors'
import { remainderChargeQuerySchema } from '@pactum/contracts/f2f-transactions'
import { chargeQuerySchema, chargeQuoteSchema, type ChargeQuote, transactionChargeQuerySchema } from '@pactum/contracts/transactions'
import type { PaymentMethod } from '@pactum/domain/currencies'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { quoteOrRefuse } from '../quote.ts'
import type { TransactionRow } from '../engine/transaction-state.ts'
import { findForParty } from '../transactions-repository.ts'
import { userOf } from '../../../http/plugins/authentication.ts'
import { kindRoutes, transactionKinds } from './kinds.ts'
import { toQuoteView } from './quote-view.ts'
import { idParams, transactionErrors } from './route-parts.ts'

type Query = { price: number; payment_method?: PaymentMethod | undefined }

/**
 * What each kind quotes: online, a new price or method of the sale; face to
 * face, the remainder of a total (the body names the total, as the caller
 * did; the charge is the remainder's, paid the deposit's way by default).
 */
const quotes = {
  online: {
    publicSummary: 'Fee quote (public)',
    summary: 'Fee quote for a new price or method of this transaction',
    querystring: transactionChargeQuerySchema,
    // The query's schema defaults the method to card.
    quote: (row: TransactionRow, query: Query): ChargeQuote =>
      toQuoteView(quoteOrRefuse({ price: query.price, currency: row.currency, paymentMethod: query.payment_method ?? 'card' })),
  },
  f2f: {
    publicSummary: 'Fee quote for a deposit (public)',
    summary: 'Fee quote for the remainder of a total price (price is the total, deposit included)',
    querystring: remainderChargeQuerySchema,
    quote: (row: TransactionRow, query: Query): ChargeQuote => {
      const paymentMethod = query.payment_method ?? (row.payment_method as PaymentMethod | null) ?? 'card'
      const remainder = quoteOrRefuse({ price: query.price - row.price, currency: row.currency, paymentMethod })
      return { ...toQuoteView(remainder), price: query.price }
    },
  },
} as const

/** The fee quotes of spec §7 for both kinds: the public one for a new offer, and a party's for their sale. */
export function quoteRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    for (const kind of transactionKinds) {
      const { prefix, tag } = kindRoutes[kind]
      const { publicSummary, summary, querystring, quote } = quotes[kind]
      app.get(
        `${prefix}/charge`,
        {
          schema: {
            tags: [tag],
            summary: publicSummary,
            querystring: chargeQuerySchema,
            response: { 200: chargeQuoteSchema, 400: errorBodySchema },
          },
        },
        async (request) =>
          toQuoteView(
            quoteOrRefuse({ price: request.query.price, currency: request.query.currency, paymentMethod: request.query.payment_method }),
          ),
      )
      app.get(
        `${prefix}/transactions/:id/charge`,
        {
          onRequest: app.authenticate,
          schema: {
            security: [{ bearer: [] }],
            tags: [tag],
            summary,
            params: idParams,
            querystring,
            response: { 200: chargeQuoteSchema, ...transactionErrors },
          },
        },
        async (request) => quote(await findForParty(app.services.db, request.params.id, userOf(request).id, kind), request.query),
      )
    }
  }
}

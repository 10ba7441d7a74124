import { catalogue, type TransactionActionName } from '@pactum/contracts/transaction-actions'
import { payResponseSchema, publishableKeySchema } from '@pactum/contracts/transactions'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { openPaymentIntent, type PaymentDeps, type PaymentPart, pay } from '../pay.ts'
import type { TransactionRow } from '../engine/transaction-state.ts'
import { findForParty } from '../transactions-repository.ts'
import { userOf } from '../../../http/plugins/authentication.ts'
import { kindRoutes, transactionKinds } from './kinds.ts'
import { idParams, transactionErrors } from './route-parts.ts'

/** Which part of the price each paying action of the catalogue opens. */
const partOf: Partial<Record<TransactionActionName, PaymentPart>> = { pay: 'payment', pay_deposit: 'deposit', pay_remainder: 'remainder' }

/**
 * The payment calls of spec §7 (DESIGN §5 "Pay") for both kinds: each paying
 * action of the catalogue opens its part's payment, and the open payment can
 * be fetched again; choosing the method and confirming are catalogue actions
 * answered with the transaction (`action-routes.ts`).
 */
export function paymentRoutes(deps: () => PaymentDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const answer = ({ row, intent }: { row: TransactionRow; intent: { id: string; clientSecret: string } }, part: PaymentPart) => ({
      payment_intent_id: intent.id,
      client_secret: intent.clientSecret,
      charge: part === 'remainder' ? (row.remainder_charge ?? 0) : row.charge,
    })

    for (const [name, entry] of catalogue) {
      const part = partOf[name]
      if (entry.answers !== 'payment' || !part) continue
      for (const kind of transactionKinds) {
        const route = entry[kind]
        if (!route) continue
        const { prefix, tag } = kindRoutes[kind]
        const secured = { security: [{ bearer: [] }], tags: [route.tag ?? tag] }
        app.post(
          `${prefix}/transactions/:id/${route.path}`,
          {
            onRequest: app.authenticate,
            preHandler: app.idempotentRepeatable,
            schema: { ...secured, summary: route.summary, params: idParams, response: { 200: payResponseSchema, ...transactionErrors } },
          },
          async (request) =>
            answer(await pay({ ...deps(), idempotency: request.idempotencyClaim }, userOf(request), request.params.id, part), part),
        )
        app.get(
          `${prefix}/transactions/:id/${part === 'payment' ? '' : `${part}_`}stripe_client_secret`,
          {
            onRequest: app.authenticate,
            schema: {
              ...secured,
              summary: part === 'payment' ? 'The open payment again' : `The open payment of the ${part} again`,
              params: idParams,
              response: { 200: payResponseSchema, ...transactionErrors },
            },
          },
          async (request) => answer(await openPaymentIntent(deps(), userOf(request), request.params.id, part), part),
        )
      }
    }

    app.get(
      '/transactions/:id/stripe_publishable_key',
      {
        onRequest: app.authenticate,
        schema: {
          security: [{ bearer: [] }],
          tags: ['payment'],
          summary: 'The payment provider’s publishable key',
          params: idParams,
          response: { 200: publishableKeySchema, ...transactionErrors },
        },
      },
      async (request) => {
        await findForParty(app.services.db, request.params.id, userOf(request).id)
        return { publishable_key: deps().payments.publishableKey }
      },
    )
  }
}

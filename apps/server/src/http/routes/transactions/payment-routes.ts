import { confirmPaymentBodySchema, payResponseSchema, publishableKeySchema, setPaymentMethodBodySchema, transactionSchema } from '@pactum/contracts/transactions'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { confirmPayment, openPaymentIntent, type PaymentDeps, pay, setPaymentMethod } from '../../../services/transactions/pay.ts'
import { toTransactionView, type ViewContext } from '../../../transactions/transaction-view.ts'
import { findForParty } from '../../../transactions/transactions-repository.ts'
import { userOf } from '../../plugins/authentication.ts'
import { idParams, transactionErrors } from './route-parts.ts'

const errors = transactionErrors
const secured = { security: [{ bearer: [] }], tags: ['payment'] }

/** Payment calls of spec §7 for online transactions (DESIGN §5 "Pay"). */
export function paymentRoutes(deps: () => PaymentDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy })

    app.post(
      '/transactions/:id/set_payment_method',
      {
        onRequest: app.authenticate,
        preHandler: app.idempotent,
        schema: { ...secured, summary: 'Choose the payment method (reprices the fee)', params: idParams, body: setPaymentMethodBodySchema, response: { 200: transactionSchema, ...errors } },
      },
      async (request) => {
        const user = userOf(request)
        return toTransactionView(await setPaymentMethod({ ...deps(), idempotency: request.idempotencyClaim }, user, request.params.id, 'online', request.body.payment_method), user, context())
      },
    )

    app.post(
      '/transactions/:id/pay',
      {
        onRequest: app.authenticate,
        preHandler: app.idempotentRepeatable,
        schema: { ...secured, summary: 'Open the payment of price + fee (buyer)', params: idParams, response: { 200: payResponseSchema, ...errors } },
      },
      async (request) => {
        const { row, intent } = await pay({ ...deps(), idempotency: request.idempotencyClaim }, userOf(request), request.params.id, 'payment')
        return { payment_intent_id: intent.id, client_secret: intent.clientSecret, charge: row.charge }
      },
    )

    app.get(
      '/transactions/:id/stripe_client_secret',
      {
        onRequest: app.authenticate,
        schema: { ...secured, summary: 'The open payment again', params: idParams, response: { 200: payResponseSchema, ...errors } },
      },
      async (request) => {
        const { row, intent } = await openPaymentIntent(deps(), userOf(request), request.params.id, 'payment')
        return { payment_intent_id: intent.id, client_secret: intent.clientSecret, charge: row.charge }
      },
    )

    app.get(
      '/transactions/:id/stripe_publishable_key',
      {
        onRequest: app.authenticate,
        schema: { ...secured, summary: 'The payment provider’s publishable key', params: idParams, response: { 200: publishableKeySchema, ...errors } },
      },
      async (request) => {
        await findForParty(app.services.db, request.params.id, userOf(request).id)
        return { publishable_key: deps().payments.publishableKey }
      },
    )

    app.post(
      '/transactions/:id/confirm_payment',
      {
        onRequest: app.authenticate,
        preHandler: app.idempotent,
        schema: { ...secured, summary: 'Tell the server the browser confirmed the payment', params: idParams, body: confirmPaymentBodySchema, response: { 200: transactionSchema, ...errors } },
      },
      async (request) => {
        const user = userOf(request)
        return toTransactionView(await confirmPayment({ ...deps(), idempotency: request.idempotencyClaim }, user, request.params.id, 'online', request.body.payment_intent_id), user, context())
      },
    )
  }
}

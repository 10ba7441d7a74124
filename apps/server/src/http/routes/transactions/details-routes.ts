import { errorBodySchema } from '@pactum/contracts/errors'
import {
  lastShippingDetailsSchema,
  partyDetailsSchema,
  shippingDetailsBodySchema,
  shippingDetailsSchema,
  supportedCurrenciesSchema,
  supportedPaymentMethodsSchema,
  transactionSchema,
  updateTransactionBodySchema,
} from '@pactum/contracts/transactions'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { TransactionDeps } from '../../../transactions/apply-event.ts'
import { lastShippingDetails, partyDetails, setShippingDetails, shippingDetails } from '../../../services/transactions/transaction-details.ts'
import { toTransactionView, type ViewContext } from '../../../transactions/transaction-view.ts'
import { onlineChange, updateTransaction } from '../../../services/transactions/update-transaction.ts'
import { userOffer } from '../../../services/transactions/user-offer.ts'
import { getPayoutCurrencies } from '../../../services/profile.ts'
import { userOf } from '../../plugins/authentication.ts'
import { idParams, transactionErrors } from './route-parts.ts'

const errors = transactionErrors
const secured = { security: [{ bearer: [] }], tags: ['transactions'] }

/**
 * Spec §7 calls around a transaction: the creator's update before joining,
 * the parties' details, the buyer's address (and their last one), and the
 * user's currencies and payment methods.
 */
export function detailsRoutes(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const context = (): ViewContext => ({ now: deps().clock.now(), policy: deps().policy })

    app.patch(
      '/transactions/:id',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          summary: 'Change price, currency, description or method before anyone joined (creator)',
          params: idParams,
          body: updateTransactionBodySchema,
          response: { 200: transactionSchema, ...errors },
        },
      },
      async (request) => {
        const user = userOf(request)
        const row = await updateTransaction({ ...deps(), config: app.services.config }, user, request.params.id, 'online', onlineChange(request.body))
        return toTransactionView(row, user, context())
      },
    )

    app.get(
      '/me/supported_currencies',
      {
        onRequest: app.authenticate,
        schema: { ...secured, tags: ['profile'], summary: 'Currencies I may create transactions in', response: { 200: supportedCurrenciesSchema, 401: errorBodySchema } },
      },
      async (request) => userOffer(app.services.config, userOf(request)).currencies,
    )

    app.get(
      '/me/supported_payout_currencies',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          tags: ['profile'],
          summary: 'Currencies I may be paid out in: my payout country’s (409 active_country_not_set until a country is set)',
          response: { 200: supportedCurrenciesSchema, 401: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (request) => getPayoutCurrencies(app.services.db, userOf(request).id),
    )

    app.get(
      '/me/supported_payment_methods',
      {
        onRequest: app.authenticate,
        schema: { ...secured, tags: ['profile'], summary: 'Payment methods I may create with and pay by', response: { 200: supportedPaymentMethodsSchema, 401: errorBodySchema } },
      },
      async (request) => userOffer(app.services.config, userOf(request)).paymentMethods,
    )

    for (const party of ['seller', 'buyer'] as const) {
      app.get(
        `/transactions/:id/${party}_details`,
        {
          onRequest: app.authenticate,
          schema: { ...secured, summary: `The ${party}’s name and e-mail (null until they joined)`, params: idParams, response: { 200: partyDetailsSchema, ...errors } },
        },
        async (request) => partyDetails(app.services.db, userOf(request), request.params.id, party),
      )
    }

    for (const kind of ['shipping', 'billing'] as const) {
      app.get(
        `/transactions/:id/${kind}_details`,
        {
          onRequest: app.authenticate,
          schema: { ...secured, summary: `The buyer’s ${kind} address as given at checkout`, params: idParams, response: { 200: shippingDetailsSchema, ...errors } },
        },
        async (request) => shippingDetails(app.services.db, userOf(request), request.params.id),
      )
    }

    app.get(
      '/me/last_shipping_details',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          tags: ['profile'],
          summary: 'The address I last gave to ship to as a buyer (null before the first), to offer at the next checkout',
          response: { 200: lastShippingDetailsSchema, 401: errorBodySchema },
        },
      },
      async (request) => ({ shipping_details: await lastShippingDetails(app.services.db, userOf(request)) }),
    )

    app.post(
      '/transactions/:id/shipping_details',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          summary: 'Give the address to ship to (buyer, before paying)',
          params: idParams,
          body: shippingDetailsBodySchema,
          response: { 200: shippingDetailsSchema, ...errors },
        },
      },
      async (request) => setShippingDetails(deps(), userOf(request), request.params.id, request.body),
    )
  }
}

import { errorBodySchema } from '@pactum/contracts/errors'
import {
  lastShippingDetailsSchema,
  shippingDetailsBodySchema,
  shippingDetailsSchema,
  supportedCurrenciesSchema,
  supportedPaymentMethodsSchema,
} from '@pactum/contracts/transactions'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { TransactionDeps } from '../engine/apply-event.ts'
import { lastShippingDetails, setShippingDetails } from '../transaction-details.ts'
import { userOffer } from '../user-offer.ts'
import { getPayoutCurrencies } from '../../profile/profile.ts'
import { userOf } from '../../../http/plugins/authentication.ts'
import { idParams, transactionErrors } from './route-parts.ts'

const errors = transactionErrors
const secured = { security: [{ bearer: [] }], tags: ['transactions'] }

/**
 * Spec §7 calls around an online transaction: the buyer's address (and
 * their last one), and the user's currencies and payment methods.
 */
export function detailsRoutes(deps: () => TransactionDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/me/supported_currencies',
      {
        onRequest: app.authenticate,
        schema: {
          ...secured,
          tags: ['profile'],
          summary: 'Currencies I may create transactions in',
          response: { 200: supportedCurrenciesSchema, 401: errorBodySchema },
        },
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
        schema: {
          ...secured,
          tags: ['profile'],
          summary: 'Payment methods I may create with and pay by',
          response: { 200: supportedPaymentMethodsSchema, 401: errorBodySchema },
        },
      },
      async (request) => userOffer(app.services.config, userOf(request)).paymentMethods,
    )

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

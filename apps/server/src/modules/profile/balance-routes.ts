import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { balanceSchema, payoutsSchema } from '@pactum/contracts/payouts'
import { userOf } from '../../http/plugins/authentication.ts'
import { toPayoutViews } from '../payouts/payout-views.ts'
import { sellerPayoutsOf } from '../payouts/payouts-repository.ts'

/**
 * Spec §7 Other: GET /app_api/balance and GET /app_api/payouts — under
 * /app_api, not /api/v1: register at the root. Both read the seller's
 * connected account at the payment provider, looked up without creating one
 * (it is created on the first transfer, see modules/transactions/transaction-jobs.ts).
 */
export const balanceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { connectedAccounts } = app.services

  app.get(
    '/app_api/balance',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['payouts'],
        summary: "The seller's balance at the payment provider",
        security: [{ bearer: [] }],
        response: { 200: balanceSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const account = await connectedAccounts.findConnectedAccount(userOf(request).id)
      if (!account) return { available: [], pending: [] }
      return connectedAccounts.getBalance(account.id)
    },
  )

  app.get(
    '/app_api/payouts',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['payouts'],
        summary: "Payouts from the seller's balance to their bank account, newest first",
        security: [{ bearer: [] }],
        response: { 200: payoutsSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const account = await connectedAccounts.findConnectedAccount(userOf(request).id)
      if (!account) return []
      const payouts = await connectedAccounts.listPayouts(account.id)
      return toPayoutViews(payouts, await sellerPayoutsOf(app.services.db, account.id))
    },
  )
}

import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { userOf } from '../plugins/authentication.ts'

const moneySchema = z.object({ amount: z.number().int(), currency: z.string() })
const balanceResponseSchema = z.object({ available: z.array(moneySchema), pending: z.array(moneySchema) })
const payoutSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.literal('paid'),
  created: z.string(),
  transaction_id: z.string(),
})

/**
 * Spec §7 Other: GET /app_api/balance and GET /app_api/payouts — under
 * /app_api, not /api/v1: register at the root. Both read the seller's
 * connected account at the payment provider, looked up without creating one
 * (it is created on the first transfer, see transactions/transaction-jobs.ts).
 */
export const balanceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { paymentProvider } = app.services

  app.get(
    '/app_api/balance',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['payouts'],
        summary: "The seller's balance at the payment provider",
        security: [{ bearer: [] }],
        response: { 200: balanceResponseSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const account = await paymentProvider.findConnectedAccount(userOf(request).id)
      if (!account) return { available: [], pending: [] }
      return paymentProvider.getBalance(account.id)
    },
  )

  app.get(
    '/app_api/payouts',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['payouts'],
        summary: 'Money credited to the seller, newest first',
        security: [{ bearer: [] }],
        response: { 200: z.array(payoutSchema), 401: errorBodySchema },
      },
    },
    async (request) => {
      const account = await paymentProvider.findConnectedAccount(userOf(request).id)
      if (!account) return []
      // These are the transfers into the seller's connected account (the
      // money released to them), which are final once made. Bank payouts
      // from the connected account to the seller's bank are a later step.
      const transfers = await paymentProvider.listTransfers(account.id)
      return transfers.map((transfer) => ({
        id: transfer.id,
        amount: transfer.amount,
        currency: transfer.currency,
        status: 'paid' as const,
        created: transfer.created.toISOString(),
        transaction_id: transfer.transactionId,
      }))
    },
  )
}

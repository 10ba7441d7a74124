import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { verifyLedger } from '../../../ledger/verify-ledger.ts'
import { adminOf } from '../../plugins/authentication.ts'

const verifyResponseSchema = z
  .object({
    ok: z.boolean(),
    breaches: z.array(z.object({ rule: z.string(), transaction_id: z.string().nullable(), detail: z.string() })),
  })
  .meta({ id: 'LedgerVerification' })

export const adminLedgerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/ledger/verify',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Check the ledger invariants',
        security: [{ bearer: [] }],
        response: { 200: verifyResponseSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      adminOf(request)
      const breaches = await verifyLedger(app.services.db)
      return { ok: breaches.length === 0, breaches }
    },
  )
}

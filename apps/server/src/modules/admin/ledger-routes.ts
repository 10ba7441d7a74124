import { ledgerVerificationSchema, longHoldsSchema } from '@pactum/contracts/admin'
import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { verifyLedger } from '../../ledger/verify-ledger.ts'
import { adminOf } from '../../http/plugins/authentication.ts'
import { longHolds } from './long-holds-repository.ts'

export const adminLedgerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/ledger/verify',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Check the ledger invariants',
        security: [{ bearer: [] }],
        response: { 200: ledgerVerificationSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      adminOf(request)
      const breaches = await verifyLedger(app.services.db)
      return { ok: breaches.length === 0, breaches }
    },
  )

  app.get(
    '/admin/long_holds',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Money held longer than HOLD_ALERT_DAYS, oldest first, with why it is still held',
        security: [{ bearer: [] }],
        response: { 200: longHoldsSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      adminOf(request)
      const { replicaReads, clock, config } = app.services
      return { alert_days: config.holdAlertDays, holds: await replicaReads.read((db) => longHolds(db, clock.now(), config.holdAlertDays)) }
    },
  )
}

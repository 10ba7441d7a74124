import { errorBodySchema } from '@pactum/contracts/errors'
import {
  explainDifferenceSchema,
  reconciliationDateSchema,
  reconciliationDaySchema,
  reconciliationDifferenceSchema,
  reconciliationQuerySchema,
} from '@pactum/contracts/reconciliation'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../errors.ts'
import { adminOf } from '../../http/plugins/authentication.ts'
import { reconcileDay } from './reconcile-day.ts'
import { explainDifference, findDay, findDifference } from './reconciliation-repository.ts'
import { toDayView, toDifferenceView } from './reconciliation-view.ts'

const secured = { security: [{ bearer: [] }], tags: ['admin'] }
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema }

/** The daily reconciliation in the admin console (decision 107). */
export const reconciliationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/reconciliation',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...secured,
        summary: "A day's differences between the ledger and the payment provider, and whether it was reconciled",
        querystring: reconciliationQuerySchema,
        response: { 200: reconciliationDaySchema, ...errors },
      },
    },
    async (request) => {
      adminOf(request)
      return toDayView(request.query.date, await app.services.replicaReads.read((db) => findDay(db, request.query.date)))
    },
  )

  app.post(
    '/admin/reconciliation/runs',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...secured,
        summary: 'Reconcile a day now (the daily job does yesterday by itself); a re-run replaces the result',
        body: z.object({ date: reconciliationDateSchema }),
        response: { 200: reconciliationDaySchema, ...errors },
      },
    },
    async (request) => {
      adminOf(request)
      const { db, payments, clock } = app.services
      await reconcileDay({ db, payments, now: clock.now() }, request.body.date)
      return toDayView(request.body.date, await findDay(db, request.body.date))
    },
  )

  app.post(
    '/admin/reconciliation/differences/:id/explain',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...secured,
        summary: 'Mark a difference explained, with the reason (kept with who and when)',
        params: z.object({ id: z.uuid() }),
        body: explainDifferenceSchema,
        response: { 200: reconciliationDifferenceSchema, ...errors, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request) => {
      const admin = adminOf(request)
      const outcome = await explainDifference(app.services.db, {
        id: request.params.id,
        reason: request.body.reason,
        adminUserId: admin.id,
        at: app.services.clock.now(),
      })
      if (outcome === 'not_found') throw new AppError('not_found', 'No such difference')
      if (outcome === 'already_explained') throw new AppError('difference_already_explained', 'This difference is explained already')
      request.log.info({ differenceId: request.params.id, adminId: admin.id }, 'reconciliation difference explained')
      return toDifferenceView(await findDifference(app.services.db, request.params.id))
    },
  )
}

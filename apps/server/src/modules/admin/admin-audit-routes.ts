import { auditLogQuerySchema, auditLogSchema } from '@pactum/contracts/admin'
import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { adminActions } from './admin-repository.ts'
import { toAuditLogEntryView } from './admin-views.ts'
import { adminOf } from '../../http/plugins/authentication.ts'

const secured = { security: [{ bearer: [] }], tags: ['admin'] }
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema }

/** The admin console's audit log: admin steps on transactions and decisions on reconciliation differences (client changes: admin-client-routes.ts). */
export const adminAuditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/audit_log',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...secured,
        summary: 'Every admin action with its reason, newest first',
        querystring: auditLogQuerySchema,
        response: { 200: auditLogSchema, ...errors },
      },
    },
    async (request) => {
      adminOf(request)
      const rows = await app.services.replicaReads.read((db) =>
        adminActions(db, { limit: request.query.limit, afterId: request.query.after_id }),
      )
      return rows.map(toAuditLogEntryView)
    },
  )
}

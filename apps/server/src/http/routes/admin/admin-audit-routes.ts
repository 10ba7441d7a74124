import { adminClientListSchema, auditLogQuerySchema, auditLogSchema } from '@pactum/contracts/admin'
import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { adminActions, clientsWithCounts } from '../../../admin/admin-queries.ts'
import { toAuditEventView } from '../../../admin/admin-views.ts'
import { adminOf } from '../../plugins/authentication.ts'

const secured = { security: [{ bearer: [] }], tags: ['admin'] }
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema }

/** The admin console's read-only views: the audit log and the partner clients. */
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
      const rows = await adminActions(app.services.db, { limit: request.query.limit, afterId: request.query.after_id })
      return rows.map(toAuditEventView)
    },
  )

  app.get(
    '/admin/clients',
    {
      onRequest: app.authenticateAdmin,
      schema: { ...secured, summary: 'The partner clients in the database (read-only)', response: { 200: adminClientListSchema, ...errors } },
    },
    async (request) => {
      adminOf(request)
      const rows = await clientsWithCounts(app.services.db)
      return rows.map((row) => ({
        client_id: row.id,
        name: row.name,
        url: row.url,
        background_color: row.background_color,
        text_color: row.text_color,
        routes: row.routes,
        mobile_navbar_hidden: row.mobile_navbar_hidden,
        show_seller_confirm_handover: row.show_seller_confirm_handover,
        transactions: Number(row.transactions ?? 0),
      }))
    },
  )
}

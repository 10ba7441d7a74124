import {
  adminClientListSchema,
  adminClientSchema,
  auditLogQuerySchema,
  clientChangeListSchema,
  issuedApiKeySchema,
} from '@pactum/contracts/admin'
import { errorBodySchema } from '@pactum/contracts/errors'
import { newPartnerClientBodySchema, partnerClientBodySchema } from '@pactum/contracts/partner-clients'
import type { FastifyInstance } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { clientsWithCounts } from './admin-repository.ts'
import { toAdminClientView } from './admin-views.ts'
import { issueApiKey, revokeApiKey } from '../partner-clients/partner-api-key.ts'
import { AppError } from '../../errors.ts'
import { clientChanges } from '../partner-clients/client-changes-repository.ts'
import { createPartnerClient, updatePartnerClient } from '../partner-clients/partner-clients.ts'
import { adminOf } from '../../http/plugins/authentication.ts'

const secured = { security: [{ bearer: [] }], tags: ['admin'] }
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema }
const clientParams = z.object({ client_id: z.string().max(64) })

async function adminClient(app: FastifyInstance, clientId: string) {
  const [row] = await clientsWithCounts(app.services.db, clientId)
  if (!row) throw new AppError('not_found', 'No such client')
  return toAdminClientView(row)
}

/**
 * Partner clients in the admin console (issue 12 #3, #5): list, create,
 * change, and issue or revoke their API keys. Every change is written to
 * `client_changes` with the admin who made it.
 */
export const adminClientRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/clients',
    {
      onRequest: app.authenticateAdmin,
      schema: { ...secured, summary: 'The partner clients in the database', response: { 200: adminClientListSchema, ...errors } },
    },
    async (request) => {
      adminOf(request)
      return (await app.services.replicaReads.read((db) => clientsWithCounts(db))).map(toAdminClientView)
    },
  )

  app.post(
    '/admin/clients',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...secured,
        summary: 'Adds a partner client',
        body: newPartnerClientBodySchema,
        response: { 201: adminClientSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const admin = adminOf(request)
      await createPartnerClient(app.services.db, request.body, { kind: 'admin', userId: admin.id }, app.services.clock.now())
      return reply.status(201).send(await adminClient(app, request.body.client_id))
    },
  )

  app.put(
    '/admin/clients/:client_id',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...secured,
        summary: "Changes a partner client's look and rules",
        params: clientParams,
        body: partnerClientBodySchema,
        response: { 200: adminClientSchema, ...errors, 404: errorBodySchema },
      },
    },
    async (request) => {
      const admin = adminOf(request)
      await updatePartnerClient(
        app.services.db,
        request.params.client_id,
        request.body,
        { kind: 'admin', userId: admin.id },
        app.services.clock.now(),
      )
      return adminClient(app, request.params.client_id)
    },
  )

  app.post(
    '/admin/clients/:client_id/api_key',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...secured,
        summary: "Issues the client's partner API key, replacing any earlier one; the key is shown only in this answer",
        params: clientParams,
        response: { 201: issuedApiKeySchema, ...errors, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const admin = adminOf(request)
      const now = app.services.clock.now()
      const apiKey = await issueApiKey(app.services.db, request.params.client_id, { kind: 'admin', userId: admin.id }, now)
      // The key must not linger in any cache between here and the admin's screen.
      return reply.status(201).header('cache-control', 'no-store').send({ api_key: apiKey, issued_at: now.toISOString() })
    },
  )

  app.delete(
    '/admin/clients/:client_id/api_key',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...secured,
        summary: "Revokes the client's partner API key",
        params: clientParams,
        response: { 204: z.null(), ...errors, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const admin = adminOf(request)
      await revokeApiKey(app.services.db, request.params.client_id, { kind: 'admin', userId: admin.id }, app.services.clock.now())
      return reply.status(204).send(null)
    },
  )

  app.get(
    '/admin/client_changes',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...secured,
        summary: 'Every change to partner clients (console, CLI, clients file), newest first',
        querystring: auditLogQuerySchema.extend({ client_id: z.string().max(64).optional() }),
        response: { 200: clientChangeListSchema, ...errors },
      },
    },
    async (request) => {
      adminOf(request)
      return app.services.replicaReads.read((db) =>
        clientChanges(db, {
          limit: request.query.limit,
          afterId: request.query.after_id,
          clientId: request.query.client_id,
        }),
      )
    },
  )
}

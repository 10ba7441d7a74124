import { errorBodySchema } from '@pactum/contracts/errors'
import {
  clientParams,
  clientWebhookEndpointParams,
  createdWebhookEndpointSchema,
  partnerEventFeedQuerySchema,
  partnerEventFeedSchema,
  webhookEndpointBodySchema,
  webhookEndpointParams,
  webhookDeliveryQuerySchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookReplayBodySchema,
  webhookReplaySchema,
} from '@pactum/contracts/partner-webhooks'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { adminOf } from '../../http/plugins/authentication.ts'
import { apiKeyHeader, clientOfApiKey } from '../partner-clients/partner-api-key.ts'
import { apiKeyRateLimit, partnerClientOf, partnerSecured } from '../partner-clients/partner-caller-routes.ts'
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  listWebhookEndpoints,
  partnerEventFeed,
  rotateWebhookSecret,
} from './webhook-endpoints.ts'
import { listDeliveries, replayWebhooks } from './webhook-console.ts'

const adminSecured = { security: [{ bearer: [] }], tags: ['admin'] }
const adminErrors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema }
const partnerErrors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema }

/**
 * A partner client's webhook endpoints and event feed (issue 35): managed
 * by an admin for any client, and by the partner itself with its API key.
 * The signing secret is shown once, when the endpoint is made.
 */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const create = (clientId: string, body: z.infer<typeof webhookEndpointBodySchema>) =>
    createWebhookEndpoint(app.services.db, {
      clientId,
      url: body.url,
      eventTypes: body.event_types ?? [],
      now: app.services.clock.now(),
      allowPrivate: app.services.config.webhookAllowPrivate,
    })

  app.post(
    '/admin/clients/:client_id/webhook_endpoints',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...adminSecured,
        summary: 'Adds a webhook endpoint to a partner client; its signing secret is shown only in this answer',
        params: clientParams,
        body: webhookEndpointBodySchema,
        response: { 201: createdWebhookEndpointSchema, ...adminErrors },
      },
    },
    async (request, reply) => {
      adminOf(request)
      return reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await create(request.params.client_id, request.body))
    },
  )

  app.get(
    '/admin/clients/:client_id/webhook_endpoints',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...adminSecured,
        summary: "A partner client's webhook endpoints",
        params: clientParams,
        response: { 200: z.array(webhookEndpointSchema), ...adminErrors },
      },
    },
    async (request) => {
      adminOf(request)
      return listWebhookEndpoints(app.services.db, request.params.client_id)
    },
  )

  app.delete(
    '/admin/clients/:client_id/webhook_endpoints/:id',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...adminSecured,
        summary: 'Deletes a webhook endpoint and its pending deliveries',
        params: clientWebhookEndpointParams,
        response: { 204: z.null(), ...adminErrors },
      },
    },
    async (request, reply) => {
      adminOf(request)
      await deleteWebhookEndpoint(app.services.db, request.params.client_id, request.params.id)
      return reply.status(204).send(null)
    },
  )

  const rotate = (clientId: string, id: string) => rotateWebhookSecret(app.services.db, { clientId, id, now: app.services.clock.now() })
  const enable = (clientId: string, id: string) =>
    enableWebhookEndpoint({ db: app.services.db, jobs: app.services.jobs }, { clientId, id, now: app.services.clock.now() })

  app.post(
    '/admin/clients/:client_id/webhook_endpoints/:id/rotate_secret',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...adminSecured,
        summary: 'A new signing secret, shown only in this answer; the old one still signs for 24 hours',
        params: clientWebhookEndpointParams,
        response: { 200: createdWebhookEndpointSchema, ...adminErrors },
      },
    },
    async (request, reply) => {
      adminOf(request)
      return reply.header('cache-control', 'no-store').send(await rotate(request.params.client_id, request.params.id))
    },
  )

  app.post(
    '/admin/clients/:client_id/webhook_endpoints/:id/enable',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...adminSecured,
        summary: 'Enables an endpoint disabled after three days of failures; what it was owed is sent again, in order',
        params: clientWebhookEndpointParams,
        response: { 200: webhookEndpointSchema, ...adminErrors },
      },
    },
    async (request) => {
      adminOf(request)
      return enable(request.params.client_id, request.params.id)
    },
  )

  app.get(
    '/admin/clients/:client_id/webhook_endpoints/:id/deliveries',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...adminSecured,
        summary: "An endpoint's deliveries, newest event first, each with its last attempt (status, answer, time taken)",
        params: clientWebhookEndpointParams,
        querystring: webhookDeliveryQuerySchema,
        response: { 200: z.array(webhookDeliverySchema), ...adminErrors },
      },
    },
    async (request) => {
      adminOf(request)
      return app.services.replicaReads.read((db) =>
        listDeliveries(db, {
          clientId: request.params.client_id,
          endpointId: request.params.id,
          before: request.query.before,
          limit: request.query.limit,
        }),
      )
    },
  )

  app.post(
    '/admin/clients/:client_id/webhook_endpoints/:id/replay',
    {
      onRequest: app.authenticateAdmin,
      schema: {
        ...adminSecured,
        summary: 'Sends events to the endpoint again: the ones named, or every event of the client in a time range',
        params: clientWebhookEndpointParams,
        body: webhookReplayBodySchema,
        response: { 200: webhookReplaySchema, ...adminErrors },
      },
    },
    async (request) => {
      adminOf(request)
      const { event_ids: eventIds, from, to } = request.body
      return replayWebhooks(
        { db: app.services.db, jobs: app.services.jobs },
        {
          clientId: request.params.client_id,
          endpointId: request.params.id,
          ...(eventIds ? { eventIds } : {}),
          ...(from && to ? { from: new Date(from), to: new Date(to) } : {}),
          now: app.services.clock.now(),
        },
      )
    },
  )

  app.post(
    '/partner/webhook_endpoints/:id/rotate_secret',
    {
      config: apiKeyRateLimit,
      schema: {
        ...partnerSecured,
        summary: 'A new signing secret, shown only in this answer; the old one still signs for 24 hours',
        params: webhookEndpointParams,
        response: { 200: createdWebhookEndpointSchema, ...partnerErrors },
      },
    },
    async (request, reply) => {
      const client = await partnerClientOf(app, request)
      return reply.header('cache-control', 'no-store').send(await rotate(client.id, request.params.id))
    },
  )

  app.post(
    '/partner/webhook_endpoints/:id/enable',
    {
      config: apiKeyRateLimit,
      schema: {
        ...partnerSecured,
        summary: 'Enables one of your endpoints disabled after three days of failures; what it was owed is sent again, in order',
        params: webhookEndpointParams,
        response: { 200: webhookEndpointSchema, ...partnerErrors },
      },
    },
    async (request) => enable((await partnerClientOf(app, request)).id, request.params.id),
  )

  app.post(
    '/partner/webhook_endpoints',
    {
      config: apiKeyRateLimit,
      // The key is checked before the body is read, as on /partner/guest_transactions.
      preParsing: async (request, _reply, payload) => {
        await partnerClientOf(app, request)
        return payload
      },
      schema: {
        ...partnerSecured,
        summary: 'Adds a webhook endpoint for your client; its signing secret is shown only in this answer',
        body: webhookEndpointBodySchema,
        response: { 201: createdWebhookEndpointSchema, ...partnerErrors },
      },
    },
    async (request, reply) => {
      const client = await clientOfApiKey(app.services.db, request.headers[apiKeyHeader] as string | undefined)
      return reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await create(client.id, request.body))
    },
  )

  app.get(
    '/partner/webhook_endpoints',
    {
      config: apiKeyRateLimit,
      schema: {
        ...partnerSecured,
        summary: "Your client's webhook endpoints",
        response: { 200: z.array(webhookEndpointSchema), ...partnerErrors },
      },
    },
    async (request) => listWebhookEndpoints(app.services.db, (await partnerClientOf(app, request)).id),
  )

  app.delete(
    '/partner/webhook_endpoints/:id',
    {
      config: apiKeyRateLimit,
      schema: {
        ...partnerSecured,
        summary: 'Deletes one of your webhook endpoints and its pending deliveries',
        params: webhookEndpointParams,
        response: { 204: z.null(), ...partnerErrors },
      },
    },
    async (request, reply) => {
      const client = await partnerClientOf(app, request)
      await deleteWebhookEndpoint(app.services.db, client.id, request.params.id)
      return reply.status(204).send(null)
    },
  )

  app.get(
    '/partner/events',
    {
      config: apiKeyRateLimit,
      schema: {
        ...partnerSecured,
        summary:
          "Your transactions' events after the last one you read, oldest first (the last 30 days): the webhooks' events, for polling",
        querystring: partnerEventFeedQuerySchema,
        response: { 200: partnerEventFeedSchema, ...partnerErrors },
      },
    },
    async (request) => {
      const client = await partnerClientOf(app, request)
      const { after, limit } = request.query
      return { events: await partnerEventFeed(app.services.db, { clientId: client.id, after, limit, now: app.services.clock.now() }) }
    },
  )
}

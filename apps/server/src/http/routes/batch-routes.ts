import { batchQuerySchema, batchSchema } from '@pactum/contracts/batch'
import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'

/** The request's headers a batched GET carries over: who asks, in which language, for what. */
const carriedHeaders = ['authorization', 'accept-language', 'accept'] as const

/**
 * Several of the signed-in first screen's GETs in one request (issue 13,
 * LCP). Each goes through its own route, exactly as if the browser had
 * sent it: the same authentication, authorization, validation, logging
 * (as `<this request's id>.<index>`) and answer, errors included. The web
 * app sends the batch before its script has downloaded
 * (app/first-requests.ts): one request on the wire instead of five, each of
 * which would have needed a connection of its own over HTTP/1.1.
 */
export const batchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me/batch',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['profile'],
        summary: 'Several of the first screen’s GETs at once, each answered as if asked alone',
        security: [{ bearer: [] }],
        querystring: batchQuerySchema,
        response: { 200: batchSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const headers: Record<string, string> = {}
      for (const name of carriedHeaders) {
        const value = request.headers[name]
        if (typeof value === 'string') headers[name] = value
      }
      const answers = await Promise.all(
        request.query.get.map(async (get, index) => {
          const answer = await app.inject({
            method: 'GET',
            url: `/api/v1${get}`,
            headers: { ...headers, 'x-request-id': `${request.id}.${index}` },
            remoteAddress: request.ip,
          })
          return { get, status: answer.statusCode, body: answer.body === '' ? null : (answer.json() as unknown) }
        }),
      )
      return { answers }
    },
  )
}

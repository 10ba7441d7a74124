import { errorBodySchema } from '@pactum/contracts/errors'
import { contactUsBodySchema, contactUsResponseSchema } from '@pactum/contracts/profile'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { submitContactMessage } from './contact-support.ts'
import { userOf } from '../../http/plugins/authentication.ts'
import { perPersonHourly } from '../../http/per-person-limit.ts'

/** Spec §7 Other: POST /app_api/contact_us — under /app_api, not /api/v1: register at the root. */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, jobs } = app.services

  app.post(
    '/app_api/contact_us',
    {
      onRequest: app.authenticate,
      // Authentication runs first (onRequest, before the body is even parsed), so the limit is per user.
      config: perPersonHourly('contact_us', 5),
      schema: {
        tags: ['support'],
        summary: 'Send a message to support (5 an hour)',
        security: [{ bearer: [] }],
        body: contactUsBodySchema,
        response: { 201: contactUsResponseSchema, 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { id, created } = await submitContactMessage({ db, jobs, clock }, userOf(request), request.body)
      return reply.status(201).send({ id, created: created.toISOString() })
    },
  )
}

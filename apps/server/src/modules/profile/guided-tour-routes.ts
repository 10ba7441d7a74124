import { errorBodySchema } from '@pactum/contracts/errors'
import { guidedTourSchema } from '@pactum/contracts/guided-tour'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { userOf } from '../../http/plugins/authentication.ts'
import { markTourSeen, tourSeenAt } from './profile-repository.ts'

/**
 * The guided tour is shown once per person (spec §2): remembered here rather
 * than in the browser, so it follows the user to another device.
 */
export const guidedTourRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me/guided_tour',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['profile'],
        summary: 'Whether the signed-in user has seen the guided tour',
        security: [{ bearer: [] }],
        response: { 200: guidedTourSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      return { seen: (await tourSeenAt(app.services.db, userOf(request).id)) !== null }
    },
  )

  app.post(
    '/me/guided_tour/seen',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['profile'],
        summary: 'Remember that the signed-in user finished or skipped the guided tour',
        security: [{ bearer: [] }],
        response: { 200: guidedTourSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const { db, clock } = app.services
      await markTourSeen(db, userOf(request).id, clock.now())
      return { seen: true }
    },
  )
}

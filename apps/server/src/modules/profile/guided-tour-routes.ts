import { errorBodySchema } from '@pactum/contracts/errors'
import { guidedTourSchema } from '@pactum/contracts/guided-tour'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { userOf } from '../../http/plugins/authentication.ts'

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
      const row = await app.services.db.selectFrom('users').select('tour_seen_at').where('id', '=', userOf(request).id).executeTakeFirstOrThrow()
      return { seen: row.tour_seen_at !== null }
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
      // The first time counts: seeing the tour again from the help pages changes nothing.
      await db.updateTable('users').set({ tour_seen_at: clock.now() }).where('id', '=', userOf(request).id).where('tour_seen_at', 'is', null).execute()
      return { seen: true }
    },
  )
}

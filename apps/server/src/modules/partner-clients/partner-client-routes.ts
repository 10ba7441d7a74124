import { errorBodySchema } from '@pactum/contracts/errors'
import { partnerClientSchema } from '@pactum/contracts/partner-clients'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../errors.ts'
import { findPartnerClient } from './partner-clients.ts'

/** Public: the web app asks before sign-in, to paint a partner's look from `?client_id=`. */
export const partnerClientRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/clients/:client_id',
    {
      schema: {
        tags: ['system'],
        summary: "A partner client's look and rules",
        params: z.object({ client_id: z.string().max(64) }),
        response: { 200: partnerClientSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const client = await findPartnerClient(app.services.db, request.params.client_id)
      if (!client) throw new AppError('not_found', 'No such client')
      return client
    },
  )
}

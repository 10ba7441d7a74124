import { errorBodySchema } from '@pactum/contracts/errors'
import { meSchema } from '@pactum/contracts/me'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { userOf } from '../plugins/authentication.ts'

export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['profile'],
        summary: 'The signed-in user',
        security: [{ bearer: [] }],
        response: { 200: meSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const user = userOf(request)
      return {
        id: user.id,
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        roles: user.roles,
        created: user.createdAt.toISOString(),
      }
    },
  )
}

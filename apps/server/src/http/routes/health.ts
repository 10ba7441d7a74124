import { healthSchema } from '@pactum/contracts/health'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { pingDatabase } from '../../db/ping.ts'
import { AppError } from '../../errors.ts'

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { tags: ['system'], summary: 'Liveness and database check', response: { 200: healthSchema } } },
    async () => {
      try {
        await pingDatabase(app.services.db)
      } catch {
        throw new AppError('service_unavailable', 'The database does not answer')
      }
      return { status: 'ok' as const, database: app.services.databaseKind }
    },
  )
}

import { carrierListSchema } from '@pactum/contracts/transactions'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'

/** Public: the web app's carrier picker needs it before anyone signs in. */
export const supportedCarriersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/supported_carriers',
    {
      schema: { tags: ['tracking'], summary: 'Carriers a seller can ship with', response: { 200: carrierListSchema } },
    },
    async () => app.services.carrierTracker.supportedCarriers.map(({ slug, name }) => ({ slug, name })),
  )
}

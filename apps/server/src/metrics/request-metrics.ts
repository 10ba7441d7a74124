import type { FastifyInstance } from 'fastify'
import type { PactumMetrics } from './metrics.ts'

/**
 * Every answered request counted and timed by its route's pattern
 * (`/api/v1/transactions/:id`, never the id itself, so the labels stay
 * few), its method and its status; a request no route matched is
 * `unmatched`.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: PactumMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.requestSeconds.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    )
  })
}

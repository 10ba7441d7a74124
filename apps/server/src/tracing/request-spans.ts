import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { OpenSpan, Tracing } from './tracing.ts'

/**
 * One span per HTTP request (with OTEL_EXPORTER_OTLP_ENDPOINT set): named by
 * the method and the route's pattern (`GET /api/v1/transactions/:id`, never
 * the id, as the metrics label it; `unmatched` when no route matched), with
 * the answer's status. A 5xx marks the span failed; a 4xx is the client's
 * mistake, not the server's. The route is known from onRequest on: Fastify
 * routes a request before its first hook.
 */
export function registerRequestSpans(app: FastifyInstance, tracing: Tracing): void {
  const spans = new WeakMap<FastifyRequest, OpenSpan>()
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url ?? 'unmatched'
    spans.set(
      request,
      tracing.start(`${request.method} ${route}`, { 'http.request.method': request.method, 'http.route': route }, { kind: 'server' }),
    )
  })
  const end = (request: FastifyRequest, status: number | undefined) => {
    const span = spans.get(request)
    if (!span) return
    spans.delete(request)
    span.setAttributes(status === undefined ? { 'pactum.request.aborted': true } : { 'http.response.status_code': status })
    if (status !== undefined && status >= 500) span.fail(new Error(`answered ${status}`))
    span.end()
  }
  app.addHook('onResponse', async (request, reply) => end(request, reply.statusCode))
  app.addHook('onRequestAbort', async (request) => end(request, undefined))
}

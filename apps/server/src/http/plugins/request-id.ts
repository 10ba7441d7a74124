import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'

/** A client's id is kept only if it is short and plain, so it is safe to log and echo. */
const acceptableRequestId = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Every request carries `X-Request-Id` (the web app sends a random one); the
 * server logs it with every line of that request and echoes it, generating
 * one when the client sent none.
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
}

export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header
  return value && acceptableRequestId.test(value) ? value : randomUUID()
}

import type { ErrorBody, ErrorCode } from '@pactum/contracts/errors'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { ProviderRateLimitedError } from '../../adapters/payment-provider/provider-error.ts'
import { AppError } from '../../errors.ts'

/**
 * Input with a code of its own in DESIGN §5's list, used when it is the only
 * thing wrong (a list's `limit` beyond its maximum, or not a number).
 */
const fieldCodes: Readonly<Record<string, ErrorCode>> = { 'querystring.limit': 'invalid_limit' }

/**
 * Every error leaves in the one documented shape `{code, error, details}`.
 * Validation errors name the field; a 5xx never carries internals (the
 * request id in the log ties it to the stack trace).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers)
      return reply.status(error.statusCode).send(body(error.code, error.message, error.details))
    }
    if (error instanceof ProviderRateLimitedError) {
      // The provider's pace, not the caller's: nothing was done, and the same request may come again in a moment.
      request.log.warn({ err: error }, 'the payment provider asked us to slow down')
      return reply
        .status(503)
        .header('retry-after', '1')
        .send(body('service_unavailable', 'The payment provider is busy; try again in a moment'))
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation.map((issue) => ({
        field: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
        message: issue.message,
      }))
      const first = fields[0]
      const own = first && fields.every((field) => field.field === first.field) ? fieldCodes[first.field] : undefined
      return reply
        .status(400)
        .send(body(own ?? 'validation_failed', first ? `${first.field}: ${first.message}` : 'Invalid request', { fields }))
    }
    const status = error.statusCode ?? 500
    if (status === 429) {
      return reply.status(429).send(body('rate_limited', 'Too many requests, try again later'))
    }
    if (status === 413) return reply.status(413).send(body('file_too_large', error.message))
    if (status === 415) return reply.status(415).send(body('unsupported_media_type', error.message))
    // The body could not be parsed at all (broken JSON, a __proto__ key): the body is the field at fault.
    if (status === 400 && error.code?.startsWith('FST_ERR_CTP_')) {
      const message = error.message
      return reply.status(400).send(body('validation_failed', `body: ${message}`, { field: 'body', fields: [{ field: 'body', message }] }))
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send(body('validation_failed', error.message))
    }
    request.log.error({ err: error }, 'request failed')
    return reply.status(500).send(body('internal_error', 'Something went wrong on our side'))
  })

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(body('not_found', `No route for ${request.method} ${request.url.split('?')[0]}`)),
  )
}

/**
 * Errors of the router, which come before any route (and its error
 * handler) is chosen: a path segment that is not valid URL encoding
 * (`%zz`), or longer than the router reads (`maxParamLength`; no id of
 * ours comes near). Both are bad path parameters, answered as such.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'a path segment is longer than any id (100 characters)'
      : 'a path segment is not valid URL encoding'
  // No route means no onRequest hook: echo the request id here.
  void reply
    .header('x-request-id', request.id)
    .status(400)
    .send(body('validation_failed', `params: ${message}`, { field: 'params', fields: [{ field: 'params', message }] }))
}

function body(code: ErrorBody['code'], error: string, details?: Record<string, unknown>): ErrorBody {
  return details ? { code, error, details } : { code, error }
}

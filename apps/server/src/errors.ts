import { type ErrorCode, errorStatus } from '@pactum/contracts/errors'

/**
 * A refusal the client can act on: its code is part of the documented
 * vocabulary and decides the HTTP status. Thrown by use cases and turned into
 * the error body by the error handler.
 */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly statusCode: number
  readonly details: Record<string, unknown> | undefined
  readonly headers: Record<string, string> | undefined

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.statusCode = errorStatus[code]
    this.details = options.details
    this.headers = options.headers
  }
}

/**
 * A refusal of one input, named as schema validation names it (`body.price`,
 * `querystring.limit`, `headers.idempotency-key`): the text starts with the
 * field, and `details.fields` lists it, so that a client can put the
 * message next to the right input whichever check refused it.
 */
export function fieldError(field: string, message: string, code: ErrorCode = 'validation_failed'): AppError {
  return new AppError(code, `${field}: ${message}`, { details: { field, fields: [{ field, message }] } })
}

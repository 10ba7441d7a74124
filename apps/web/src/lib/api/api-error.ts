import type { ErrorCode } from '@pactum/contracts/errors'

/** Codes the client adds for failures that never produced an API error body. */
export type ClientErrorCode = 'network_error' | 'unexpected_response'

/** A failed API call, carrying the server's error code so screens can react to it. */
export class ApiError extends Error {
  readonly status: number
  readonly code: ErrorCode | ClientErrorCode
  readonly details: Record<string, unknown>
  readonly requestId: string

  constructor(init: {
    status: number
    code: ErrorCode | ClientErrorCode
    message: string
    details?: Record<string, unknown>
    requestId: string
  }) {
    super(init.message)
    this.name = 'ApiError'
    this.status = init.status
    this.code = init.code
    this.details = init.details ?? {}
    this.requestId = init.requestId
  }
}

/** Reads `{code, error, details}`; anything else (a proxy's HTML page, say) becomes `unexpected_response`. */
export async function apiErrorFromResponse(response: Response, requestId: string): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined)
  // Loaded on the first error only: zod stays out of the first chunk.
  const { errorBodySchema } = await import('@pactum/contracts/errors')
  const parsed = errorBodySchema.safeParse(body)
  if (parsed.success) {
    return new ApiError({
      status: response.status,
      code: parsed.data.code,
      message: parsed.data.error,
      details: parsed.data.details,
      requestId,
    })
  }
  return new ApiError({
    status: response.status,
    code: 'unexpected_response',
    message: `HTTP ${response.status}`,
    requestId,
  })
}

import { describe, expect, it } from 'vitest'
import { apiError } from '../../test/fake-api-client.ts'
import { ApiError } from './api-error.ts'
import { canRetry } from './can-retry.ts'

describe('canRetry', () => {
  it('offers another try where the answer can change', () => {
    expect(canRetry(new ApiError({ status: 0, code: 'network_error', message: 'offline', requestId: 'r' }))).toBe(true)
    expect(canRetry(apiError(500, 'internal_error'))).toBe(true)
    expect(canRetry(apiError(503, 'service_unavailable'))).toBe(true)
    // A proxy's error page is not our error body, but its status still tells.
    expect(canRetry(new ApiError({ status: 502, code: 'unexpected_response', message: 'HTTP 502', requestId: 'r' }))).toBe(true)
    expect(canRetry(apiError(429, 'rate_limited'))).toBe(true)
    expect(canRetry(apiError(409, 'idempotency_request_in_progress'))).toBe(true)
    expect(canRetry(new TypeError('Failed to fetch'))).toBe(true)
  })

  it('offers none where the same request is refused again', () => {
    expect(canRetry(apiError(404, 'not_found'))).toBe(false)
    expect(canRetry(apiError(404, 'join_code_not_found'))).toBe(false)
    expect(canRetry(apiError(403, 'cannot_join_own_transaction'))).toBe(false)
    expect(canRetry(apiError(403, 'forbidden'))).toBe(false)
    expect(canRetry(apiError(401, 'unauthenticated'))).toBe(false)
    expect(canRetry(apiError(400, 'validation_failed'))).toBe(false)
    expect(canRetry(apiError(409, 'already_paid'))).toBe(false)
    expect(canRetry(new ApiError({ status: 404, code: 'unexpected_response', message: 'HTTP 404', requestId: 'r' }))).toBe(false)
  })
})

import { ApiError } from './api-error.ts'

/** Conflicts that pass on their own: the same request, sent before, is still being answered. */
const passingConflicts = new Set<string>(['idempotency_request_in_progress'])

/**
 * Whether sending the same call again can get another answer, and so whether
 * an error screen offers "Try again". No answer at all (a network error), the
 * server's own failure (5xx) and "too many requests" (429) can pass; a
 * refusal of the request itself (400 bad input, 403 not yours, 404 not
 * found, 409 wrong state…) is given again. A failure that is not an API
 * answer (a provider call, a bug) is not known to be final, so it may be tried.
 */
export function canRetry(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true
  if (error.status === 0 || error.status === 429 || error.status >= 500) return true
  return passingConflicts.has(error.code)
}

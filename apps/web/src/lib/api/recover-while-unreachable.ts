import type { Query } from '@tanstack/react-query'
import { ApiError } from './api-error.ts'

/** How often a read that found Pactum unreachable asks again on its own. */
export const recoveryIntervalMs = 10_000

/**
 * A read that failed because Pactum could not be reached (no answer at all,
 * or the server's own 5xx) asks again every `intervalMs` while the page is
 * visible, so the page recovers by itself once the server is back, without
 * "Try again". A refusal of the request (4xx) is not asked again, nor a 429
 * (asking again would only add to the load). The default `refetchInterval`
 * of every query; a query with its own interval keeps it.
 */
export function recoverWhileUnreachable(intervalMs: number = recoveryIntervalMs) {
  return (query: Query): number | false => {
    const { status, error } = query.state
    if (status !== 'error') return false
    return error instanceof ApiError && (error.status === 0 || error.status >= 500) ? intervalMs : false
  }
}

import { tokenCheckIntervalMs, tokenMinValiditySeconds } from '../constants.ts'

/** True when the token has fewer than `minValiditySeconds` left (or has already expired). */
export function needsRefresh(expiresAtSeconds: number | undefined, nowMs: number, minValiditySeconds = tokenMinValiditySeconds): boolean {
  if (expiresAtSeconds === undefined) return false
  return expiresAtSeconds - nowMs / 1000 < minValiditySeconds
}

export interface TokenWatchOptions {
  expiresAt: () => number | undefined
  refresh: () => Promise<unknown>
  now?: () => number
  intervalMs?: number
  minValiditySeconds?: number
}

/**
 * Checks the token on a fixed interval and refreshes it ahead of expiry. We
 * do this ourselves instead of oidc-client-ts's automaticSilentRenew so that
 * the interval and the margin are the ones the spec gives. Returns a stop function.
 */
export function startTokenWatch({
  expiresAt,
  refresh,
  now = Date.now,
  intervalMs = tokenCheckIntervalMs,
  minValiditySeconds = tokenMinValiditySeconds,
}: TokenWatchOptions): () => void {
  let refreshing = false
  const check = () => {
    if (refreshing || !needsRefresh(expiresAt(), now(), minValiditySeconds)) return
    refreshing = true
    refresh().finally(() => {
      refreshing = false
    })
  }
  const timer = setInterval(check, intervalMs)
  return () => clearInterval(timer)
}

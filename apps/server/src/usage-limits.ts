import type { Kysely } from 'kysely'
import type { LimitsConfig } from './config.ts'
import type { Database } from './db/schema.ts'
import { AppError } from './errors.ts'
import { countHit, type HitValues, storedCounterKey } from './db/rate-limit-counts.ts'

/**
 * Each user's and each partner client's pace (issue 30 #3), counted in the
 * database's rate-limit counters (rate-limit-store.ts) so that several
 * server processes count together. The limits are settings (config.ts);
 * their defaults leave a busy seller far below them.
 */
export type UsageReason = 'transaction_creates' | 'listing_creates' | 'list_reads' | 'partner_requests' | 'message_attachments'

export interface UsageLimit {
  reason: UsageReason
  max: number
  windowSeconds: number
}

/** The configured limit for each reason. */
export function usageLimit(limits: LimitsConfig, reason: UsageReason): UsageLimit {
  switch (reason) {
    case 'transaction_creates':
      return { reason, max: limits.transactionCreatesPerHour, windowSeconds: 3_600 }
    case 'listing_creates':
      return { reason, max: limits.listingCreatesPerHour, windowSeconds: 3_600 }
    case 'list_reads':
      return { reason, max: limits.listReadsPerMinute, windowSeconds: 60 }
    case 'partner_requests':
      return { reason, max: limits.partnerRequestsPerMinute, windowSeconds: 60 }
    case 'message_attachments':
      // Not a setting: room for a case's photos and documents, not for filling the document store.
      return { reason, max: 20, windowSeconds: 3_600 }
  }
}

/** Whole seconds until a window closes; at least one, as Retry-After promises a later try works. */
export function secondsUntil(end: Date, now: Date): number {
  return Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000))
}

/** A use of `subject`'s (a user id, a client id) to count against a limit. */
export interface CountedUse {
  limit: UsageLimit
  subject: string
}

function counterKey(use: CountedUse): string {
  return `usage|${use.limit.reason}|${use.subject}`
}

/** The hit a use adds, for a statement that counts it while it writes (engine/apply-event.ts's create). */
export function usageHit(use: CountedUse, now: Date): HitValues {
  return { key: storedCounterKey(counterKey(use)), hits: 1, windowEnd: new Date(now.getTime() + use.limit.windowSeconds * 1000), now }
}

/** Refuses a use counted beyond its limit: 429 `rate_limited`, with the seconds until its window closes. */
export function refuseBeyondLimit(limit: UsageLimit, hit: { count: number; windowEndsAt: Date }, now: Date): void {
  if (hit.count <= limit.max) return
  const retryAfter = secondsUntil(hit.windowEndsAt, now)
  throw new AppError('rate_limited', `Too many requests (${limit.reason.replace('_', ' ')}); try again in ${retryAfter} s`, {
    details: { reason: limit.reason, limit: limit.max, window_seconds: limit.windowSeconds, retry_after: retryAfter },
    headers: { 'retry-after': String(retryAfter) },
  })
}

/** Counts one use by `subject` (a user id, a client id) and refuses it, 429 `rate_limited`, beyond the limit. */
export async function useWithinLimit(db: Kysely<Database>, now: Date, limit: UsageLimit, subject: string): Promise<void> {
  const hit = await countHit(db, counterKey({ limit, subject }), limit.windowSeconds * 1000, now)
  refuseBeyondLimit(limit, hit, now)
}

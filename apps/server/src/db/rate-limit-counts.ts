import { createHash } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import type { Database } from './schema.ts'

/*
 * The `rate_limits` table: counters every server process shares. The HTTP
 * rate limits (`http/plugins/rate-limit-store.ts`) and the use cases' own
 * limits (`usage-limits.ts`, invitations) count here.
 */

/**
 * Counts `hits` (one unless told) on `key` in its window (opened by the first hit, `windowMs`
 * long) and answers the count so far, this hit included. One upsert: two
 * hits at once cannot both read the last allowed count. Run inside a
 * database transaction, the hit is undone with it (an invitation refused
 * or rolled back is not counted) and the row stays locked until the
 * commit, so concurrent senders are counted one after the other.
 */
export async function countHit(
  db: Kysely<Database>,
  key: string,
  windowMs: number,
  now: Date,
  hits = 1,
): Promise<{ count: number; windowEndsAt: Date }> {
  const windowEnd = new Date(now.getTime() + windowMs)
  // Stored as a hash: a key may carry whatever a client put in the URL (a
  // path parameter is read before validation), and a text column takes no NUL.
  const storedKey = createHash('sha256').update(key).digest('hex')
  const result = await sql<{ count: number; window_ends_at: Date }>`
    insert into rate_limits (key, count, window_ends_at) values (${storedKey}, ${hits}, ${windowEnd})
    on conflict (key) do update set
      count = case when rate_limits.window_ends_at <= ${now} then ${hits} else rate_limits.count + ${hits} end,
      window_ends_at = case when rate_limits.window_ends_at <= ${now} then excluded.window_ends_at else rate_limits.window_ends_at end
    returning count, window_ends_at`.execute(db)
  const row = result.rows[0]
  if (!row) throw new Error('rate limit counter not written')
  return { count: row.count, windowEndsAt: new Date(row.window_ends_at) }
}

/** Counters whose window closed a day ago tell nothing any more. */
export async function purgeRateLimits(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_ends_at', '<', new Date(now.getTime() - 86_400_000))
    .execute()
}

/**
 * Reserves the next free slot on `key` for a caller that may go once every
 * `intervalMs` (a pace, not a count per window): one upsert moves the
 * key's next free time on by one interval from itself or from `now`,
 * whichever is later, and answers when this caller's slot begins (now or
 * later). Calls paced so are spread evenly, so no one-second window of the
 * receiver's sees more than the rate and one, whatever its windows' edges.
 */
export async function reserveSlot(db: Kysely<Database>, key: string, intervalMs: number, now: Date): Promise<Date> {
  const storedKey = createHash('sha256').update(key).digest('hex')
  const result = await sql<{ next_free: Date }>`
    insert into rate_limits (key, count, window_ends_at)
    values (${storedKey}, 1, ${now}::timestamptz + ${intervalMs}::float8 * interval '1 millisecond')
    on conflict (key) do update set
      count = rate_limits.count + 1,
      window_ends_at = greatest(rate_limits.window_ends_at, ${now}::timestamptz) + ${intervalMs}::float8 * interval '1 millisecond'
    returning window_ends_at as next_free`.execute(db)
  const row = result.rows[0]
  if (!row) throw new Error('pace slot not written')
  return new Date(new Date(row.next_free).getTime() - intervalMs)
}

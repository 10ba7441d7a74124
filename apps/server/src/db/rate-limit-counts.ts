import { createHash } from 'node:crypto'
import { type Kysely, type QueryCreator, sql } from 'kysely'
import type { Database } from './schema.ts'

/*
 * The `rate_limits` table: counters every server process shares. The HTTP
 * rate limits (`http/plugins/rate-limit-store.ts`) and the use cases' own
 * limits (`usage-limits.ts`, invitations) count here.
 */

/** How a key is stored: hashed, as a key may carry whatever a client put in the URL (a path parameter is read before validation), and a text column takes no NUL. */
export function storedCounterKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

/** One hit (or `hits`) on a stored key, as `countHit` sends it: also a WITH clause of a statement that counts while it writes (engine/apply-event.ts). */
export interface HitValues {
  key: string
  hits: number
  windowEnd: Date
  now: Date
}

/**
 * The counter's upsert, answering the count so far and when its window ends.
 * `relaxed`: committed without waiting for the write-ahead log to reach the
 * disk (synchronous_commit off for this statement's own transaction only).
 * For a counter sent on its own that is most of its cost, and a crash of the
 * machine could lose at most the last fraction of a second of hits: a limit
 * counted a little short once, never money. Never inside a transaction that
 * writes anything else (countHit sees to that).
 */
export function hitCounter(db: QueryCreator<Database>, values: HitValues, { relaxed = false } = {}) {
  const source = relaxed
    ? db.selectFrom(sql<{ setting: string }>`(select set_config('synchronous_commit', 'off', true))`.as('relaxed'))
    : db.selectNoFrom([])
  return db
    .insertInto('rate_limits')
    .columns(['key', 'count', 'window_ends_at'])
    .expression(
      source.select([
        sql<string>`${values.key}`.as('key'),
        sql<number>`${values.hits}`.as('count'),
        sql<Date>`${values.windowEnd}`.as('window_ends_at'),
      ]),
    )
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.window_ends_at <= ${values.now} then ${values.hits} else rate_limits.count + ${values.hits} end`,
        window_ends_at: sql<Date>`case when rate_limits.window_ends_at <= ${values.now} then excluded.window_ends_at else rate_limits.window_ends_at end`,
      }),
    )
    .returning(['count', 'window_ends_at'])
}

/**
 * Counts `hits` (one unless told) on `key` in its window (opened by the first hit, `windowMs`
 * long) and answers the count so far, this hit included. One upsert: two
 * hits at once cannot both read the last allowed count. Run inside a
 * database transaction, the hit is undone with it (an invitation refused
 * or rolled back is not counted) and the row stays locked until the
 * commit, so concurrent senders are counted one after the other. Sent on
 * its own, it commits relaxed (hitCounter).
 */
export async function countHit(
  db: Kysely<Database>,
  key: string,
  windowMs: number,
  now: Date,
  hits = 1,
): Promise<{ count: number; windowEndsAt: Date }> {
  const values = { key: storedCounterKey(key), hits, windowEnd: new Date(now.getTime() + windowMs), now }
  const row = await hitCounter(db, values, { relaxed: !db.isTransaction }).executeTakeFirst()
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
 *
 * Committed relaxed, as a counter sent on its own (hitCounter): every caller
 * updates the one row, so each waited for the one before it to reach the
 * disk, and with 60 provider calls in flight a slot took 6 ms of waiting on
 * the row (issue 36). A crash loses at most the last slots handed out: the
 * calls after a restart start their line again from now.
 */
export async function reserveSlot(db: Kysely<Database>, key: string, intervalMs: number, now: Date): Promise<Date> {
  const nextFree = await moveNextFree(db, 'reserveSlot', key, intervalMs, now)
  if (!nextFree) throw new Error('pace slot not written')
  return new Date(nextFree.getTime() - intervalMs)
}

/**
 * Takes a token from `key`'s bucket, which holds `burst` tokens and gains
 * `perSecond` a second, and answers whether there was one: a token bucket
 * (Stripe's own request limiter is one, by its engineering blog "Scaling
 * your API with rate limiters"). Kept as the generic cell rate algorithm's
 * one timestamp, the time the bucket will be full again: a taken token moves
 * it on by one interval from itself or from `now`, whichever is later, and
 * is refused when that would put it more than `burst` intervals ahead of
 * `now`. A refused take changes nothing. Unlike a count per window, calls
 * that keep under the rate but come a little bunched (a paced caller's
 * late ones) all pass, and no more than `burst` ever pass at once.
 *
 * Committed relaxed, as reserveSlot, and for the same reason.
 */
export async function takeToken(
  db: Kysely<Database>,
  key: string,
  bucket: { perSecond: number; burst: number },
  now: Date,
): Promise<boolean> {
  const intervalMs = 1000 / bucket.perSecond
  // Timestamps keep whole microseconds: a bucket's worth of intervals such as 1000/22 ms, each rounded,
  // can add up to a few microseconds past `burst` intervals and would refuse the last token of a full bucket.
  const roundingSlackMs = 0.001 * bucket.burst
  return (await moveNextFree(db, 'takeToken', key, intervalMs, now, bucket.burst * intervalMs + roundingSlackMs)) !== undefined
}

/**
 * The one upsert of reserveSlot and takeToken: moves `key`'s next free time
 * on by one interval from itself or from `now`, whichever is later, and
 * answers it; unless that would put it more than `limitMs` ahead of `now`,
 * when nothing changes and it answers undefined. Committed relaxed: that
 * would reach whatever else a transaction around it writes, so it refuses
 * to run inside one.
 */
async function moveNextFree(
  db: Kysely<Database>,
  caller: string,
  key: string,
  intervalMs: number,
  now: Date,
  limitMs = Number.POSITIVE_INFINITY,
): Promise<Date | undefined> {
  if (db.isTransaction) throw new Error(`${caller} commits on its own: call it outside a database transaction`)
  const interval = sql`${intervalMs}::float8 * interval '1 millisecond'`
  const moved = sql`greatest(rate_limits.window_ends_at, ${now}::timestamptz) + ${interval}`
  const withinLimit = Number.isFinite(limitMs)
    ? sql`where ${moved} <= ${now}::timestamptz + ${limitMs}::float8 * interval '1 millisecond'`
    : sql``
  const result = await sql<{ next_free: Date }>`
    insert into rate_limits (key, count, window_ends_at)
    select ${storedCounterKey(key)}, 1, ${now}::timestamptz + ${interval}
    from (select set_config('synchronous_commit', 'off', true)) as relaxed
    on conflict (key) do update set count = rate_limits.count + 1, window_ends_at = ${moved}
    ${withinLimit}
    returning window_ends_at as next_free`.execute(db)
  const row = result.rows[0]
  return row ? new Date(row.next_free) : undefined
}

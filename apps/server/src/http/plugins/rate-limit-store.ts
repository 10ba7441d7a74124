import { createHash } from 'node:crypto'
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import { type Kysely, sql } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'

/**
 * A store for @fastify/rate-limit in the database: one row per route and key
 * (a user, an address), counted in the window that row opened. Several server
 * processes on one PostgreSQL therefore share every limit, and a restart
 * forgets none. The counter is one upsert, so concurrent requests cannot both
 * see the last allowed count.
 */
interface RouteNamed {
  method?: string | string[]
  url?: string
}

export function databaseRateLimitStore(db: Kysely<Database>, clock: Clock): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    readonly #prefix: string

    constructor(_options?: unknown, prefix = '') {
      this.#prefix = prefix
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      const now = clock.now()
      const windowEnd = new Date(now.getTime() + timeWindow)
      // Stored as a hash: a key may carry whatever a client put in the URL (a
      // path parameter is read before validation), and a text column takes no NUL.
      const storedKey = createHash('sha256').update(this.#prefix + key).digest('hex')
      sql<{ count: number; window_ends_at: Date }>`
        insert into rate_limits (key, count, window_ends_at) values (${storedKey}, 1, ${windowEnd})
        on conflict (key) do update set
          count = case when rate_limits.window_ends_at <= ${now} then 1 else rate_limits.count + 1 end,
          window_ends_at = case when rate_limits.window_ends_at <= ${now} then excluded.window_ends_at else rate_limits.window_ends_at end
        returning count, window_ends_at`
        .execute(db)
        .then(
          (result) => {
            const row = result.rows[0]
            if (!row) return callback(new Error('rate limit counter not written'))
            callback(null, { current: row.count, ttl: Math.max(0, new Date(row.window_ends_at).getTime() - now.getTime()) })
          },
          (error: Error) => callback(error),
        )
    }

    /**
     * Each route counts apart, as the in-memory store does. @fastify/rate-limit
     * hands over the route's merged limit settings with the route itself in
     * `routeInfo` (its types say the route options).
     */
    child(options: RouteNamed & { routeInfo?: RouteNamed }): FastifyRateLimitStore {
      const route = options.routeInfo ?? options
      return new DatabaseRateLimitStore(undefined, `${String(route.method)} ${String(route.url)}|`)
    }
  }
  return DatabaseRateLimitStore
}

/** Counters whose window closed a day ago tell nothing any more. */
export async function purgeRateLimits(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_ends_at', '<', new Date(now.getTime() - 86_400_000)).execute()
}

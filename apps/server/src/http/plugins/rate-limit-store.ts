import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import { countHit } from '../../db/rate-limit-counts.ts'
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
      countHit(db, this.#prefix + key, timeWindow, now).then(
        (hit) => callback(null, { current: hit.count, ttl: Math.max(0, hit.windowEndsAt.getTime() - now.getTime()) }),
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

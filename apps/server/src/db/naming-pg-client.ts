import pg from 'pg'
import { isStalePreparedStatement, StatementNames } from './prepared-statements.ts'

/** How many statements a pool's clients sent named (for the test that pg-boss still hands its pool our client). */
export interface NamingStats {
  named: number
}

/**
 * A pg Client class, for a pool we do not send through ourselves (pg-boss's),
 * that names a text with parameters once it has been sent a few times, as
 * prepared-statements.ts does for our own pool: PostgreSQL then parses and
 * plans it once per connection instead of for every call. pg-boss's fetch,
 * completion and insert are large CTEs; planning them afresh was about an
 * eighth of PostgreSQL's time while releases' transfers went out (issue 36).
 *
 * pg-boss sends nothing with parameters inside a transaction of its own on
 * this pool, so a statement gone stale (a newer pg-boss changed its tables)
 * is simply sent again unnamed, and the connection names nothing more.
 * The class goes in as pg-pool's documented `Client` option, which pg-boss
 * passes through with the rest of its connection settings.
 */
export function namingPgClient(stats: NamingStats = { named: 0 }): typeof pg.Client {
  const names = new StatementNames()
  return class NamingClient extends pg.Client {
    #stale = false

    // pg's query has a dozen overloads; this one takes them all and changes only a text with parameters.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the overloads' union
    override query(...args: any[]): any {
      const [text, values, callback] = args as [unknown, unknown, unknown]
      if (this.#stale || typeof text !== 'string' || !Array.isArray(values) || values.length === 0) {
        return super.query(...(args as Parameters<pg.Client['query']>))
      }
      const name = names.nameFor(text)
      if (name === undefined) return super.query(text, values, callback as never)
      stats.named += 1
      const named = { name, text, values }
      if (typeof callback === 'function') {
        const done = callback as (error: Error | null, result?: pg.QueryResult) => void
        super.query(named, (error: Error | null, result: pg.QueryResult) => {
          if (!error || !isStalePreparedStatement(error)) return done(error, result)
          this.#stale = true
          super.query(text, values, done)
        })
        return undefined
      }
      return super.query(named).catch((error: unknown) => {
        if (!isStalePreparedStatement(error)) throw error
        this.#stale = true
        return super.query(text, values)
      })
    }
  }
}

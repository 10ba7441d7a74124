import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely'
import { LRUCache } from 'lru-cache'
import type pg from 'pg'
import type { PreparedStatementsMode } from '../config.ts'
import { checkedPgVersion, installedPgVersion, processIdOf } from './pg-internals.ts'
import { type NamedStatement, ResultShapes } from './result-shapes.ts'

/**
 * PostgreSQL plans every unnamed statement afresh. For the hot reads (a
 * 63-column row, three OR'd party columns, a lateral join) planning is most
 * of the database's work: pgbench runs the GET's statement at about 15,000
 * a second unnamed and 60,000 prepared on the same two cores (issue 13,
 * docs/decisions/073-prepared-statements.md "Prepared statements").
 *
 * So a statement text sent often enough gets a name, and pg prepares it once
 * per connection and from then on only binds and executes it; PostgreSQL
 * keeps a generic plan when it costs no more than the fresh ones did.
 *
 * Only statements with parameters are named. A table that gains a column
 * (a migration by a newer replica) makes PostgreSQL refuse a prepared
 * `select *` once ("cached plan must not change result type"); outside a
 * transaction that statement can simply be sent again unnamed, inside one
 * the whole transaction would be lost. So inside a transaction only texts
 * without a `*` are named: their answer keeps its columns whatever a table
 * gains, and PostgreSQL plans them again by itself when a table changes.
 * Most writes run inside transactions, and planning them afresh was a fifth
 * of PostgreSQL's time while releases' transfers went out (issue 36).
 */

export interface PreparedStatementOptions {
  /** Times a text must be seen before it is named, so one-off texts (an `in` list of some length) stay unnamed. */
  namedAfter: number
  /** At most this many named texts per process (and so per connection): bounds PostgreSQL's memory. */
  maxNamed: number
  /**
   * Have a named statement's answer described once per connection (result-shapes.ts). Only where a
   * connection is one server session: behind a transaction-mode pooler another server connection may
   * prepare the statement again after a migration changed its columns, and nothing would refuse it.
   */
  describeOnce: boolean
}

let warnedOfFallback = false

/**
 * The mode to open the pool in: the configured one, unless it is `on` or `pooled` and the installed pg
 * no longer has what result-shapes.ts takes from its internals (`problem`, pg-internals.ts). Then `off`,
 * which sends every statement through pg's public API, with a warning once per process: reads and
 * writes stay correct, only slower, rather than misread or failing after a pg upgrade.
 */
export function preparedStatementsModeFor(
  configured: PreparedStatementsMode,
  problem: () => string | undefined,
  warn: (message: string) => void = console.warn,
): PreparedStatementsMode {
  if (configured === 'off') return 'off'
  const found = problem()
  if (found === undefined) return configured
  if (!warnedOfFallback) {
    warnedOfFallback = true
    warn(
      `DATABASE_PREPARED_STATEMENTS=${configured} cannot be used with the installed pg ${installedPgVersion()} ` +
        `(db/pg-internals.ts was checked against ${checkedPgVersion}): ${found}. ` +
        'Statements are sent as with DATABASE_PREPARED_STATEMENTS=off: correct, but PostgreSQL plans each one afresh. See docs/pg-internals.md.',
    )
  }
  return 'off'
}

const defaults: PreparedStatementOptions = { namedAfter: 3, maxNamed: 200, describeOnce: true }

/**
 * Texts that hold a `*` and still answer the same columns whatever a table
 * gains, named inside transactions too (answersFixedColumns). pg-boss's job
 * insert, sent inside the caller's transaction (the outbox), selects `*`
 * from its own json_to_recordset and answers `select id`. Bounded, since
 * the texts come from a caller.
 */
const fixedAnswers = new Set<string>()
const maxFixedAnswers = 50

/** Declares that `text`'s answer keeps its columns whatever its tables gain, though it holds a `*`. */
export function answersFixedColumns(text: string): void {
  if (fixedAnswers.size < maxFixedAnswers) fixedAnswers.add(text)
}

export function preparingPool(pool: pg.Pool, options: Partial<PreparedStatementOptions> = {}): PostgresPool {
  const settings = { ...defaults, ...options }
  const names = new StatementNames(settings)
  const shapes = new ResultShapes({ describeOnce: settings.describeOnce })
  const clients = new WeakMap<pg.PoolClient, PreparingClient>()
  return {
    options: pool.options,
    async connect() {
      const client = await pool.connect()
      let preparing = clients.get(client)
      if (!preparing) {
        preparing = new PreparingClient(client, names, shapes)
        clients.set(client, preparing)
      }
      preparing.checkedOut()
      return preparing
    },
    end: () => pool.end(),
  }
}

/** Which texts have earned a name; shared by every connection of the pool. */
export class StatementNames {
  readonly #seen: LRUCache<string, number>
  readonly #named = new Map<string, string>()
  readonly #settings: Pick<PreparedStatementOptions, 'namedAfter' | 'maxNamed'>

  constructor(settings: Pick<PreparedStatementOptions, 'namedAfter' | 'maxNamed'> = defaults) {
    this.#settings = settings
    this.#seen = new LRUCache({ max: settings.maxNamed * 10 })
  }

  nameFor(text: string): string | undefined {
    const named = this.#named.get(text)
    if (named !== undefined || this.#named.size >= this.#settings.maxNamed) return named
    const times = (this.#seen.get(text) ?? 0) + 1
    if (times < this.#settings.namedAfter) {
      this.#seen.set(text, times)
      return undefined
    }
    this.#seen.delete(text)
    const name = `pactum_${this.#named.size + 1}`
    this.#named.set(text, name)
    return name
  }
}

class PreparingClient implements PostgresPoolClient {
  readonly #client: pg.PoolClient
  readonly #names: StatementNames
  readonly #shapes: ResultShapes
  #inTransaction = false
  /** Its prepared statements went stale: it names nothing more and is closed when released. */
  #discard = false

  constructor(client: pg.PoolClient, names: StatementNames, shapes: ResultShapes) {
    this.#client = client
    this.#names = names
    this.#shapes = shapes
  }

  get processID(): number | undefined {
    return processIdOf(this.#client)
  }

  checkedOut(): void {
    this.#inTransaction = false
  }

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>
  query<R>(sql: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // The dialect is set up without a cursor, so Kysely only ever sends text.
    if (typeof sql !== 'string') throw new TypeError('streaming queries are not set up')
    const control = this.#followTransaction(sql)
    const values = [...(parameters ?? [])]
    // Without parameters pg uses the simple protocol, which also takes several statements in one text
    // (a script, SET, VACUUM); a name would move them to the extended one, which does not.
    const preparable =
      values.length > 0 && !control && !this.#discard && !(this.#inTransaction && sql.includes('*') && !fixedAnswers.has(sql))
    const name = preparable ? this.#names.nameFor(sql) : undefined
    if (name === undefined) return this.#send<R>(sql, values)
    const inTransaction = this.#inTransaction
    return this.#send<R>({ name, text: sql, values }).catch((error: unknown) => {
      if (!isStalePreparedStatement(error)) throw error
      this.#discard = true
      // Inside a transaction the error has ended it (the caller's retry gets a fresh connection); outside, the text is sent again.
      if (inTransaction) throw error
      return this.#send<R>(sql, values)
    })
  }

  release(destroy?: boolean): void {
    this.#client.release(destroy || this.#discard)
  }

  async #send<R>(query: string | NamedStatement, values?: unknown[]): Promise<PostgresQueryResult<R>> {
    const result = typeof query === 'string' ? await this.#client.query(query, values) : await this.#shapes.query(this.#client, query)
    return result as unknown as PostgresQueryResult<R>
  }

  /** Whether `sql` opens or ends a transaction, with the texts Kysely's PostgresDriver sends for that. */
  #followTransaction(sql: string): boolean {
    if (sql === 'begin' || sql.startsWith('start transaction')) this.#inTransaction = true
    else if (sql === 'commit' || sql === 'rollback') this.#inTransaction = false
    else return false
    return true
  }
}

/**
 * The connection's prepared statements no longer match what PostgreSQL has:
 * 0A000 "cached plan must not change result type" (a table changed under a
 * `select *`), or 26000 (the statement is gone: DISCARD ALL, a pooler). By
 * code alone, since the message follows the server's lc_messages; a
 * statement that is refused with 0A000 for another reason is refused again
 * unnamed, and that error is the caller's.
 */
export function isStalePreparedStatement(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === '0A000' || error.code === '26000')
}

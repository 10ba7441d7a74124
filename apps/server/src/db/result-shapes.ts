import type pg from 'pg'
import {
  bind,
  checkEachRow,
  connectionOf,
  DescribedResult,
  execute,
  fail,
  giveShape,
  namedQuery,
  type PgConnection,
  type PgQuery,
  parsedOn,
  prepareAsPgDoes,
  readRowsWith,
  replacePrepare,
  type ResultShape as Shape,
  sync,
  workOutShape,
} from './pg-internals.ts'

/** What a named statement is sent with: nothing else of pg's query config (row mode, types) is carried. */
export interface NamedStatement {
  name: string
  text: string
  values?: unknown[]
}

/**
 * The result shapes of a pool's named statements, worked out once each,
 * and the statements each connection need not have described again.
 *
 * pg works out every query's shape afresh, and its empty row is a copy of
 * a prototype-less object, which V8 builds key by key: for the 70 columns
 * of a transaction that was 10 µs a query, more than reading the row
 * itself, and 9 % of a GET (issue 13; brianc/node-postgres#3753 would do
 * the same upstream). A named statement's text is fixed and so are its
 * columns, until a migration changes a table under a `select *`: each
 * row description is compared with the one remembered, and a different
 * one is worked out afresh and remembered in its place.
 *
 * pg also asks PostgreSQL to describe the answer of every run (a Describe
 * message): for a transaction's 70 columns that is a row description of
 * 2.2 kB built, sent and read each time, four times the row itself. Once a
 * connection has described a statement, its later runs there are sent
 * without: PostgreSQL answers a prepared statement with the columns it
 * described, or refuses the run ("cached plan must not change result type",
 * 0A000) when a table under it changed, and prepared-statements.ts then
 * drops that connection.
 *
 * The parsers come from the pool's `types` (database.ts), which no
 * connection overrides, so one shape serves all of the pool's connections.
 */
export class ResultShapes {
  readonly #describeOnce: boolean
  readonly #byName = new Map<string, Shape>()
  /** What each connection has had described, by statement name. */
  readonly #described = new WeakMap<PgConnection, Map<string, Shape>>()
  #workedOut = 0
  #describes = 0

  /** `describeOnce: false` has every run described (behind a transaction-mode pooler, prepared-statements.ts). */
  constructor(options: { describeOnce?: boolean } = {}) {
    this.#describeOnce = options.describeOnce ?? true
  }

  /** How many shapes have been worked out so far (a repeated statement's shape only once). */
  get workedOut(): number {
    return this.#workedOut
  }

  /** How many runs asked PostgreSQL to describe their answer. */
  get describes(): number {
    return this.#describes
  }

  /** Sends a named statement on `client`, reading its rows with the statement's remembered shape. */
  query(client: pg.ClientBase, config: NamedStatement): Promise<pg.QueryResult> {
    const connection = connectionOf(client)
    return new Promise((resolve, reject) => {
      const query = namedQuery(
        config,
        (error, result) => (error ? reject(error) : resolve(result)),
        new ShapedResult(this, connection, config.name),
      )
      replacePrepare(query, (on) => this.#prepare(query, on, config.name))
      client.query(query)
    })
  }

  /** A run of an already described statement skips the Describe; anything else goes as pg sends it. */
  #prepare(query: PgQuery, connection: PgConnection, name: string): void {
    const described = this.#describeOnce && parsedOn(query, connection) ? this.#described.get(connection)?.get(name) : undefined
    if (!described) {
      this.#describes++
      prepareAsPgDoes(query, connection)
      return
    }
    try {
      bind(query, connection, name)
    } catch (error) {
      // A value that cannot be sent ends the run before Execute; Sync still brings the
      // connection back to ready. The statement itself stays prepared (pg's own prepare
      // closes it on the server but goes on counting it as parsed).
      sync(connection)
      fail(query, error as Error, connection)
      return
    }
    readRowsWith(query, described)
    // A row of another width than described means the statement is not the one described here
    // (something prepared it again under the same name): refused like PostgreSQL's own 0A000.
    checkEachRow(query, (values) => (values.length !== described.columns.length ? notTheStatementDescribed(name) : undefined))
    execute(query, connection)
  }

  /** The remembered shape of a statement that answers with these columns, if there is one. */
  known(name: string, columns: readonly pg.FieldDef[]): Shape | undefined {
    const known = this.#byName.get(name)
    return known && sameColumns(known.columns, columns) ? known : undefined
  }

  remember(name: string, shape: Shape): void {
    this.#workedOut++
    this.#byName.set(name, shape)
  }

  describedOn(connection: PgConnection, name: string, shape: Shape): void {
    let statements = this.#described.get(connection)
    if (!statements) this.#described.set(connection, (statements = new Map()))
    statements.set(name, shape)
  }
}

/** pg's Result, given the shape of its statement's rows when it has been worked out before. */
class ShapedResult extends DescribedResult {
  readonly #shapes: ResultShapes
  readonly #connection: PgConnection
  readonly #name: string

  constructor(shapes: ResultShapes, connection: PgConnection, name: string) {
    super()
    this.#shapes = shapes
    this.#connection = connection
    this.#name = name
  }

  described(columns: pg.FieldDef[]): void {
    let shape = this.#shapes.known(this.#name, columns)
    if (shape) giveShape(this, shape, columns)
    else {
      shape = workOutShape(this, columns)
      this.#shapes.remember(this.#name, shape)
    }
    this.#shapes.describedOn(this.#connection, this.#name, shape)
  }
}

/** Shaped as PostgreSQL's refusal of a prepared statement whose columns changed, which prepared-statements.ts answers by dropping the connection. */
function notTheStatementDescribed(name: string): Error {
  return Object.assign(new Error(`prepared statement "${name}" answered with other columns than it was described with`), { code: '0A000' })
}

function sameColumns(known: readonly pg.FieldDef[], columns: readonly pg.FieldDef[]): boolean {
  if (known.length !== columns.length) return false
  for (let index = 0; index < columns.length; index++) {
    const a = known[index]!
    const b = columns[index]!
    if (a.name !== b.name || a.dataTypeID !== b.dataTypeID || a.format !== b.format) return false
  }
  return true
}

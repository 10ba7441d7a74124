import pg from 'pg'

/**
 * What pg works out from a statement's row description before it reads a
 * row: each column's parser, and an empty row to copy for each row read.
 */
interface Shape {
  columns: readonly pg.FieldDef[]
  parsers: unknown[] | undefined
  emptyRow: object | null
}

/** What a named statement is sent with: nothing else of pg's query config (row mode, types) is carried. */
export interface NamedStatement {
  name: string
  text: string
  values?: unknown[]
}

/** The parts of pg 8's Result (lib/result.js) a shape is read from and put back into. */
interface ResultInternals {
  fields: pg.FieldDef[]
  _parsers: unknown[] | undefined
  _prebuiltEmptyResultObject: object | null
  addFields(columns: pg.FieldDef[]): void
}

/** pg 8's Connection (lib/connection.js): the messages a prepared statement's run is made of. */
interface Connection {
  bind(config: { portal: string; statement: string; values: unknown[] | undefined; binary: boolean | undefined; valueMapper: unknown }): void
  sync(): void
}

/** The parts of pg 8's Query (lib/query.js) a shaped query takes over. */
interface QueryInternals extends pg.Submittable {
  name: string | undefined
  values: unknown[] | undefined
  portal: string
  binary: boolean | undefined
  rows: number | undefined
  _rowMode: string | undefined
  types: unknown
  _result: ResultInternals
  _results: ResultInternals
  _accumulateRows: boolean
  _canceledDueToError: Error | false
  handleDataRow(message: { fields: unknown[] }): void
  hasBeenParsed(connection: Connection): boolean
  prepare(connection: Connection): void
  handleError(error: Error, connection: Connection): void
  _getRows(connection: Connection, rows: number | undefined): void
}

const ResultBase = pg.Result as unknown as new (rowMode: string | undefined, types: unknown) => ResultInternals
/** Given its text and values apart, pg's Query takes them as they are; given one config object, it copies it property by property (1.2–1.5 % of a GET or a create, issue 13). */
const QueryBase = pg.Query as unknown as new (
  text: string,
  values: unknown[] | undefined,
  callback: (error: Error | undefined, result: pg.QueryResult) => void,
) => QueryInternals
/** pg's own mapping of a JavaScript value to a parameter's text (what its prepare binds with). */
const prepareValue: unknown = (pg as unknown as { utils?: { prepareValue?: unknown } }).utils?.prepareValue
if (typeof prepareValue !== 'function') throw new Error('pg.utils.prepareValue is missing: result-shapes.ts is written against pg 8')

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
  readonly #described = new WeakMap<Connection, Map<string, Shape>>()
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
    const connection = (client as unknown as { connection: Connection }).connection
    return new Promise((resolve, reject) => {
      const query = new QueryBase(config.text, config.values, (error, result) => (error ? reject(error) : resolve(result)))
      query.name = config.name
      query._result = query._results = new ShapedResult(this, connection, config.name, query._rowMode, query.types)
      query.prepare = (on) => this.#prepare(query, on, config.name)
      client.query(query)
    })
  }

  /** A run of an already described statement skips the Describe; anything else goes as pg sends it. */
  #prepare(query: QueryInternals, connection: Connection, name: string): void {
    const described = this.#describeOnce && query.hasBeenParsed(connection) ? this.#described.get(connection)?.get(name) : undefined
    if (!described) {
      this.#describes++
      QueryBase.prototype.prepare.call(query, connection)
      return
    }
    try {
      connection.bind({ portal: query.portal, statement: name, values: query.values, binary: query.binary, valueMapper: prepareValue })
    } catch (error) {
      // A value that cannot be sent ends the run before Execute; Sync still brings the
      // connection back to ready. The statement itself stays prepared (pg's own prepare
      // closes it on the server but goes on counting it as parsed).
      connection.sync()
      query.handleError(error as Error, connection)
      return
    }
    query._result.fields = described.columns as pg.FieldDef[]
    query._result._parsers = described.parsers
    query._result._prebuiltEmptyResultObject = described.emptyRow
    // What pg's handler of the row description would have set: rows go into the result.
    query._accumulateRows = true
    // A row of another width than described means the statement is not the one described here
    // (something prepared it again under the same name): refused like PostgreSQL's own 0A000.
    const readRow = query.handleDataRow
    query.handleDataRow = (message) => {
      if (message.fields.length !== described.columns.length && !query._canceledDueToError) query._canceledDueToError = notTheStatementDescribed(name)
      readRow.call(query, message)
    }
    query._getRows(connection, query.rows)
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

  describedOn(connection: Connection, name: string, shape: Shape): void {
    let statements = this.#described.get(connection)
    if (!statements) this.#described.set(connection, (statements = new Map()))
    statements.set(name, shape)
  }
}

/** pg's Result, given the shape of its statement's rows when it has been worked out before. */
class ShapedResult extends ResultBase {
  readonly #shapes: ResultShapes
  readonly #connection: Connection
  readonly #name: string

  constructor(shapes: ResultShapes, connection: Connection, name: string, rowMode: string | undefined, types: unknown) {
    super(rowMode, types)
    this.#shapes = shapes
    this.#connection = connection
    this.#name = name
  }

  override addFields(columns: pg.FieldDef[]): void {
    let shape = this.#shapes.known(this.#name, columns)
    if (shape) {
      this.fields = columns
      this._parsers = shape.parsers
      this._prebuiltEmptyResultObject = shape.emptyRow
    } else {
      super.addFields(columns)
      shape = { columns, parsers: this._parsers, emptyRow: this._prebuiltEmptyResultObject }
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

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

/** The parts of pg 8's Result (lib/result.js) a shape is read from and put back into. */
interface ResultInternals {
  fields: pg.FieldDef[]
  _parsers: unknown[] | undefined
  _prebuiltEmptyResultObject: object | null
  addFields(columns: pg.FieldDef[]): void
}

/** The parts of pg 8's Query (lib/query.js) that hold its Result. */
interface QueryInternals extends pg.Submittable {
  _rowMode: string | undefined
  types: unknown
  _result: ResultInternals
  _results: ResultInternals
}

const ResultBase = pg.Result as unknown as new (rowMode: string | undefined, types: unknown) => ResultInternals
const QueryBase = pg.Query as unknown as new (config: pg.QueryConfig, callback: (error: Error | undefined, result: pg.QueryResult) => void) => QueryInternals

/**
 * The result shapes of a pool's named statements, worked out once each.
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
 * The parsers come from the pool's `types` (database.ts), which no
 * connection overrides, so one shape serves all of the pool's connections.
 */
export class ResultShapes {
  readonly #byName = new Map<string, Shape>()
  #workedOut = 0

  /** How many shapes have been worked out so far (a repeated statement's shape only once). */
  get workedOut(): number {
    return this.#workedOut
  }

  /** Sends a named statement on `client`, reading its rows with the statement's remembered shape. */
  query(client: pg.ClientBase, config: pg.QueryConfig & { name: string }): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      const query = new QueryBase(config, (error, result) => (error ? reject(error) : resolve(result)))
      query._result = query._results = new ShapedResult(this, config.name, query._rowMode, query.types)
      client.query(query)
    })
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
}

/** pg's Result, given the shape of its statement's rows when it has been worked out before. */
class ShapedResult extends ResultBase {
  readonly #shapes: ResultShapes
  readonly #name: string

  constructor(shapes: ResultShapes, name: string, rowMode: string | undefined, types: unknown) {
    super(rowMode, types)
    this.#shapes = shapes
    this.#name = name
  }

  override addFields(columns: pg.FieldDef[]): void {
    const known = this.#shapes.known(this.#name, columns)
    if (known) {
      this.fields = columns
      this._parsers = known.parsers
      this._prebuiltEmptyResultObject = known.emptyRow
      return
    }
    super.addFields(columns)
    this.#shapes.remember(this.#name, { columns, parsers: this._parsers, emptyRow: this._prebuiltEmptyResultObject })
  }
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

import { createRequire } from 'node:module'
import pg from 'pg'

/**
 * Every use of node-postgres's private fields and undocumented methods, in
 * one place. result-shapes.ts reads rows with a shape worked out once and
 * runs a described statement without Describe (issue 13); pg has no public
 * way to do either, so it reaches into pg's Query, Result and Connection.
 * Nothing else in Pactum may: a pg release that renamed one of these fields
 * would otherwise break that fast path without an error.
 *
 * Checked against pg 8.23.1 and pg-protocol 1.16.1 (the bind message's
 * `valueMapper`, and its buffer cleared when a value cannot be sent), both
 * pinned exactly in apps/server/package.json. After upgrading either, run
 * pg-internals.test.ts on PostgreSQL (docs/pg-internals.md). At start-up
 * `pgInternalsProblem` tries these functions on pg's own classes without a
 * network; if one no longer does what it should, prepared-statements.ts
 * falls back to DATABASE_PREPARED_STATEMENTS=off (plain pg, nothing private).
 */

/** The pg release these functions were read from and tested against (pinned in apps/server/package.json). */
export const checkedPgVersion = '8.23.1'

/** The pg release installed, for the warning when the probe fails. */
export function installedPgVersion(): string {
  return (createRequire(import.meta.url)('pg/package.json') as { version: string }).version
}

/** pg 8's Connection (lib/connection.js): the messages a prepared statement's run is made of. */
export interface PgConnection {
  bind(config: {
    portal: string
    statement: string
    values: unknown[] | undefined
    binary: boolean | undefined
    valueMapper: unknown
  }): void
  sync(): void
}

/** What a statement's row description makes of a Result: its columns, their parsers, and an empty row to copy for each row. */
export interface ResultShape {
  columns: readonly pg.FieldDef[]
  parsers: unknown[] | undefined
  emptyRow: object | null
}

/** The parts of pg 8's Result (lib/result.js) a shape is read from and put back into. */
interface ResultInternals {
  fields: pg.FieldDef[]
  rows: unknown[]
  _parsers: unknown[] | undefined
  _prebuiltEmptyResultObject: object | null
  addFields(columns: pg.FieldDef[]): void
  parseRow(values: unknown[]): unknown
}

/** The parts of pg 8's Query (lib/query.js) a shaped query takes over. */
interface QueryInternals extends pg.Submittable {
  callback: ((error: Error | undefined, result: object) => void) | undefined
  name: string | undefined
  values: unknown[] | undefined
  portal: string
  binary: boolean | undefined
  rows: number | undefined
  _result: ResultInternals
  _results: ResultInternals
  _accumulateRows: boolean
  _canceledDueToError: Error | false
  handleDataRow(message: { fields: unknown[] }): void
  hasBeenParsed(connection: PgConnection): boolean
  prepare(connection: PgConnection): void
  handleError(error: Error, connection: PgConnection): void
  _getRows(connection: PgConnection, rows: number | undefined): void
}

/** A pg Query, seen only through this module's functions. */
export type PgQuery = QueryInternals

const PgResultBase = pg.Result as unknown as new (rowMode: string | undefined, types: unknown) => ResultInternals
/** Given its text and values apart, pg's Query takes them as they are; given one config object, it copies it property by property (1.2–1.5 % of a GET or a create, issue 13). */
const PgQueryClass = pg.Query as unknown as new (
  text: string,
  values: unknown[] | undefined,
  callback: (error: Error | undefined, result: pg.QueryResult) => void,
) => QueryInternals
/** pg's own mapping of a JavaScript value to a parameter's text (what its prepare binds with). */
const prepareValue: unknown = (pg as unknown as { utils?: { prepareValue?: unknown } }).utils?.prepareValue

/**
 * pg's Result, whose row description (`addFields`, called by the query when
 * PostgreSQL describes the answer) goes to `described` instead. Rows as
 * objects, and the client's type parsers (pg's client gives them to the
 * query's Result when the query has none of its own).
 */
export abstract class DescribedResult extends PgResultBase {
  constructor() {
    super(undefined, undefined)
  }

  override addFields(columns: pg.FieldDef[]): void {
    this.described(columns)
  }

  abstract described(columns: pg.FieldDef[]): void
}

/** The connection a pg client sends its messages on (one per server session). */
export function connectionOf(client: pg.ClientBase): PgConnection {
  return (client as unknown as { connection: PgConnection }).connection
}

/**
 * The server process of a pg client's connection, for Kysely's query cancellation. Not probed at
 * start-up: with DATABASE_PREPARED_STATEMENTS=off Kysely reads the same field of pg's client itself.
 */
export function processIdOf(client: pg.ClientBase): number | undefined {
  return (client as { processID?: number }).processID ?? undefined
}

/** A named pg Query, answered through `callback`, whose rows go into `result`. */
export function namedQuery(
  statement: { name: string; text: string; values?: unknown[] },
  callback: (error: Error | undefined, result: pg.QueryResult) => void,
  result: DescribedResult,
): PgQuery {
  const query = new PgQueryClass(statement.text, statement.values, callback)
  query.name = statement.name
  query._result = query._results = result
  return query
}

/** Has `prepare` called in place of pg's, which sends Parse (the first time), Bind, Describe, Execute and Sync. */
export function replacePrepare(query: PgQuery, prepare: (connection: PgConnection) => void): void {
  query.prepare = prepare
}

/** pg's own prepare: Parse if this connection has not parsed the statement yet, then Bind, Describe, Execute, Sync. */
export function prepareAsPgDoes(query: PgQuery, connection: PgConnection): void {
  PgQueryClass.prototype.prepare.call(query, connection)
}

/** Whether pg has sent this named statement's Parse on this connection. */
export function parsedOn(query: PgQuery, connection: PgConnection): boolean {
  return Boolean(query.hasBeenParsed(connection))
}

/** Sends Bind for the query's portal and named statement, its values mapped as pg maps them; throws if a value cannot be sent. */
export function bind(query: PgQuery, connection: PgConnection, statement: string): void {
  connection.bind({ portal: query.portal, statement, values: query.values, binary: query.binary, valueMapper: prepareValue })
}

/** Sends Sync: the end of a run, after which PostgreSQL says it is ready again. */
export function sync(connection: PgConnection): void {
  connection.sync()
}

/** Ends the query with `error`, as pg does when a run fails. */
export function fail(query: PgQuery, error: Error, connection: PgConnection): void {
  query.handleError(error, connection)
}

/** Whether `value` is a pg Query (a named statement from result-shapes.ts is sent as one). */
export function isPgQuery(value: unknown): value is PgQuery {
  return value instanceof PgQueryClass
}

/** Answers a query as pg's client does at its end, through its callback; for a stand-in of pg's client in tests. */
export function answer(query: PgQuery, error: Error | undefined, result: object): void {
  query.callback?.(error, result)
}

/** Sends Execute and Sync: the rows come back to the query's Result. */
export function execute(query: PgQuery, connection: PgConnection): void {
  query._getRows(connection, query.rows)
}

/**
 * Reads the coming rows with `shape`, as if PostgreSQL had just described
 * them. Also what pg's handler of the row description sets besides: the
 * rows are kept in the result (without it, every answer is empty).
 */
export function readRowsWith(query: PgQuery, shape: ResultShape): void {
  giveShape(query._result, shape)
  query._accumulateRows = true
}

/** Has every row checked by `refuse` before it is read: an error it returns ends the query with that error once the run is over. */
export function checkEachRow(query: PgQuery, refuse: (values: readonly unknown[]) => Error | undefined): void {
  const readRow = query.handleDataRow
  query.handleDataRow = (message) => {
    if (!query._canceledDueToError) {
      const error = refuse(message.fields)
      if (error) query._canceledDueToError = error
    }
    readRow.call(query, message)
  }
}

/** Works out a Result's shape from its row description, as pg does for every query. */
export function workOutShape(result: DescribedResult, columns: pg.FieldDef[]): ResultShape {
  PgResultBase.prototype.addFields.call(result, columns)
  return { columns, parsers: result._parsers, emptyRow: result._prebuiltEmptyResultObject }
}

/** Gives a Result a shape worked out before, in place of working it out from the row description (`columns`, the same as the shape's). */
export function giveShape(
  result: ResultInternals | DescribedResult,
  shape: ResultShape,
  columns: readonly pg.FieldDef[] = shape.columns,
): void {
  result.fields = columns as pg.FieldDef[]
  result._parsers = shape.parsers
  result._prebuiltEmptyResultObject = shape.emptyRow
}

let checked: string | undefined | null = null

/**
 * Why the installed pg would not work with this module's functions, or
 * undefined when it does. Tried once per process on pg's own classes, with
 * a connection that writes to memory (no network): a named statement's
 * messages, its parsing remembered, a bind of mapped values, a shape given
 * to a Result and a row read with it, rows kept and a refused row's error.
 */
export function pgInternalsProblem(): string | undefined {
  if (checked === null) {
    try {
      checked = probe()
    } catch (error) {
      checked = `probing pg threw ${String(error)}`
    }
  }
  return checked
}

function probe(): string | undefined {
  if (typeof prepareValue !== 'function') return 'pg.utils.prepareValue is not a function'
  const client = new pg.Client()
  const connection = connectionOf(client)
  if (!(connection instanceof pg.Connection)) return 'a pg Client has no Connection in `connection`'
  const written: Buffer[] = []
  const probing = memoryConnection(written)

  let answer: { error?: Error; result?: pg.QueryResult } | undefined
  const describedColumns: pg.FieldDef[][] = []
  const query = namedQuery(
    { name: 'probe', text: 'select $1::int as n', values: [{ toPostgres: () => 'mapped by pg' }] },
    (error, result) => (answer = { error, result }),
    new ProbeResult(describedColumns),
  )
  const steps: Record<string, unknown> = {
    prepare: query.prepare,
    hasBeenParsed: query.hasBeenParsed,
    handleDataRow: query.handleDataRow,
    handleError: query.handleError,
    _getRows: query._getRows,
  }
  for (const [name, step] of Object.entries(steps)) if (typeof step !== 'function') return `a pg Query has no method \`${name}\``
  if (parsedOn(query, probing)) return 'a pg Query counts a statement as parsed before its Parse'
  prepareAsPgDoes(query, probing)
  if (messageTypes(written) !== 'PBDES')
    return `a pg Query's prepare sent ${messageTypes(written)}, not Parse, Bind, Describe, Execute, Sync`
  if (!parsedOn(query, probing)) return 'a pg Query does not count a statement as parsed after its Parse'

  written.length = 0
  bind(query, probing, 'probe')
  execute(query, probing)
  if (messageTypes(written) !== 'BES') return `a bind and execute sent ${messageTypes(written)}, not Bind, Execute, Sync`
  if (!written[0]!.includes(Buffer.from('mapped by pg'))) return 'a bind did not map its values with pg.utils.prepareValue'

  const column: pg.FieldDef = { name: 'n', tableID: 0, columnID: 0, dataTypeID: 23, dataTypeSize: 4, dataTypeModifier: -1, format: 'text' }
  ;(query as unknown as { handleRowDescription(message: { fields: pg.FieldDef[] }): void }).handleRowDescription({ fields: [column] })
  if (describedColumns.length !== 1) return "a pg Query's row description did not reach the Result in `_result`"
  const worked = new ProbeResult([])
  const shape = workOutShape(worked, [column])
  if (!Array.isArray(shape.parsers) || shape.parsers.length !== 1 || !shape.emptyRow || !('n' in shape.emptyRow))
    return "a pg Result's row description does not give it `_parsers` and `_prebuiltEmptyResultObject`"
  readRowsWith(query, shape)
  query.handleDataRow({ fields: ['5'] })
  if (JSON.stringify(query._result.rows) !== '[{"n":5}]')
    return `a pg Query read a row with a given shape as ${JSON.stringify(query._result.rows)}`
  const refused = new Error('refused')
  checkEachRow(query, () => refused)
  query.handleDataRow({ fields: ['6'] })
  if (query._result.rows.length !== 1) return 'a pg Query read a row after it was refused (`_canceledDueToError`)'
  fail(query, new Error('the run failed'), probing)
  if (answer?.error !== refused) return "a pg Query did not end with a refused row's error"
  written.length = 0
  sync(probing)
  if (messageTypes(written) !== 'S') return `a sync sent ${messageTypes(written)}, not Sync`
  return undefined
}

class ProbeResult extends DescribedResult {
  readonly #seen: pg.FieldDef[][]
  constructor(seen: pg.FieldDef[][]) {
    super()
    this.#seen = seen
  }

  described(columns: pg.FieldDef[]): void {
    this.#seen.push(columns)
  }
}

/** A pg Connection on a stand-in for a socket that keeps what pg writes to it in `written`. */
export function memoryConnection(written: Buffer[]): PgConnection {
  const stream = {
    writable: true,
    write: (buffer: Buffer) => written.push(Buffer.from(buffer)) > 0,
    on: () => undefined,
    once: () => undefined,
  }
  return new pg.Connection({ stream } as never) as unknown as PgConnection
}

/** The type bytes of the frontend messages written, e.g. 'PBDES' for Parse, Bind, Describe, Execute, Sync. */
export function messageTypes(written: Buffer[]): string {
  const all = Buffer.concat(written)
  let types = ''
  for (let at = 0; at < all.length; at += 1 + all.readInt32BE(at + 1)) types += String.fromCharCode(all[at]!)
  return types
}

import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../testing/test-database.ts'
import type { Database } from './database.ts'
import {
  answer,
  bind,
  checkedPgVersion,
  checkEachRow,
  connectionOf,
  DescribedResult,
  execute,
  fail,
  giveShape,
  installedPgVersion,
  isPgQuery,
  memoryConnection,
  messageTypes,
  namedQuery,
  parsedOn,
  pgInternalsProblem,
  type PgQuery,
  prepareAsPgDoes,
  processIdOf,
  readRowsWith,
  replacePrepare,
  type ResultShape,
  sync,
  workOutShape,
} from './pg-internals.ts'

/**
 * The contract between pg-internals.ts and the installed pg: each function
 * tried on pg's own Client, Query, Result and Connection. Offline (a
 * connection that writes to memory, on every run) and, with DATABASE_URL,
 * against PostgreSQL. If a pg release renames a field these functions read
 * or write, a test here fails.
 */

const int4 = (name: string): pg.FieldDef => ({
  name,
  tableID: 0,
  columnID: 0,
  dataTypeID: 23,
  dataTypeSize: 4,
  dataTypeModifier: -1,
  format: 'text',
})
const text = (name: string): pg.FieldDef => ({
  name,
  tableID: 0,
  columnID: 0,
  dataTypeID: 25,
  dataTypeSize: -1,
  dataTypeModifier: -1,
  format: 'text',
})

/** A Result that works its shape out as pg does and records the row descriptions it was given. */
class RecordingResult extends DescribedResult {
  readonly descriptions: pg.FieldDef[][] = []
  shape: ResultShape | undefined

  described(columns: pg.FieldDef[]): void {
    this.descriptions.push(columns)
    this.shape = workOutShape(this, columns)
  }
}

interface Answer {
  error?: Error | undefined
  result?: pg.QueryResult | undefined
}

function probeQuery(values: unknown[] = [1]): { query: PgQuery; answer: Answer; result: () => RecordingResult } {
  const answer: Answer = {}
  const made = new RecordingResult()
  const query = namedQuery(
    { name: 'probe', text: 'select $1::int as n, $2::text as note', values },
    (error, result) => Object.assign(answer, { error, result }),
    made,
  )
  return { query, answer, result: () => made }
}

/** What pg's client does with a backend message: hands it to the active query (lib/client.js). */
const backend = (query: PgQuery) =>
  query as unknown as {
    handleRowDescription(message: { fields: pg.FieldDef[] }): void
    handleDataRow(message: { fields: unknown[] }): void
    handleCommandComplete(message: { text: string }, connection: unknown): void
    handleReadyForQuery(connection: unknown): void
  }

describe('pg internals, on pg’s own classes without a network', () => {
  it('finds nothing missing in the installed pg, the release the module was checked against', () => {
    expect(pgInternalsProblem()).toBeUndefined()
    expect(installedPgVersion()).toBe(checkedPgVersion)
  })

  it('finds the connection a client sends on, and no server process before it connects', () => {
    const client = new pg.Client()
    expect(connectionOf(client)).toBeInstanceOf(pg.Connection)
    expect(processIdOf(client)).toBeUndefined()
  })

  it('makes a named pg Query whose rows go to the Result it is given', () => {
    const { query, result } = probeQuery()
    expect(query).toBeInstanceOf(pg.Query)
    expect(query.name).toBe('probe')
    expect(result()).toBeInstanceOf(pg.Result)

    backend(query).handleRowDescription({ fields: [int4('n'), text('note')] })

    expect(result().descriptions).toEqual([[int4('n'), text('note')]])
  })

  it('prepares as pg does: Parse the first time on a connection, then Bind, Describe, Execute and Sync', () => {
    const written: Buffer[] = []
    const connection = memoryConnection(written)
    const { query } = probeQuery()
    expect(parsedOn(query, connection)).toBe(false)

    prepareAsPgDoes(query, connection)

    expect(messageTypes(written)).toBe('PBDES')
    expect(parsedOn(query, connection)).toBe(true)
    expect(parsedOn(query, memoryConnection([]))).toBe(false)
    written.length = 0
    prepareAsPgDoes(probeQuery().query, connection)
    expect(messageTypes(written)).toBe('BDES')
  })

  it('has a replaced prepare called when pg submits the query', () => {
    const { query } = probeQuery()
    const calls: unknown[] = []
    const connection = memoryConnection([])
    replacePrepare(query, (on) => calls.push(on))

    expect(query.submit(connection as unknown as pg.Connection)).toBeFalsy()

    expect(calls).toEqual([connection])
  })

  it('binds the values as pg maps them, and executes and syncs', () => {
    const written: Buffer[] = []
    const connection = memoryConnection(written)
    const { query } = probeQuery([{ toPostgres: () => 'mapped by pg' }, null])

    bind(query, connection, 'probe')
    execute(query, connection)

    expect(messageTypes(written)).toBe('BES')
    expect(written[0]!.includes(Buffer.from('probe\0'))).toBe(true)
    expect(written[0]!.includes(Buffer.from('mapped by pg'))).toBe(true)
    written.length = 0
    sync(connection)
    expect(messageTypes(written)).toBe('S')
  })

  it('throws on a value that cannot be sent, and writes nothing of that bind', () => {
    const written: Buffer[] = []
    const connection = memoryConnection(written)
    const unsendable = {
      toPostgres: () => {
        throw new Error('cannot be sent')
      },
    }

    expect(() => bind(probeQuery([unsendable]).query, connection, 'probe')).toThrow('cannot be sent')
    bind(probeQuery([2, 'two']).query, connection, 'probe')

    expect(messageTypes(written)).toBe('B')
  })

  it('knows a pg Query, and answers one through its callback as pg’s client does', () => {
    const { query, answer: answered } = probeQuery()
    const result = { rows: [] }
    expect(isPgQuery(query)).toBe(true)
    expect(isPgQuery({ text: 'select 1', callback: () => undefined })).toBe(false)

    answer(query, undefined, result)

    expect(answered.result).toBe(result)
  })

  it('ends a query with an error', () => {
    const { query, answer } = probeQuery()
    const error = new Error('failed')
    fail(query, error, memoryConnection([]))
    expect(answer.error).toBe(error)
  })

  it('works a shape out from a row description, and reads the rows of another run with it', () => {
    const first = probeQuery()
    backend(first.query).handleRowDescription({ fields: [int4('n'), text('note')] })
    const shape = first.result().shape!
    expect(shape.columns).toEqual([int4('n'), text('note')])
    expect(shape.parsers).toHaveLength(2)
    expect(shape.emptyRow).toEqual({ n: null, note: null })

    const { query, answer } = probeQuery()
    readRowsWith(query, shape)
    backend(query).handleDataRow({ fields: ['5', 'five'] })
    backend(query).handleDataRow({ fields: [null, 'none'] })
    backend(query).handleCommandComplete({ text: 'SELECT 2' }, memoryConnection([]))
    backend(query).handleReadyForQuery(memoryConnection([]))

    expect(answer.error).toBeNull()
    expect(answer.result!.rows).toEqual([
      { n: 5, note: 'five' },
      { n: null, note: 'none' },
    ])
    expect(answer.result!.fields).toEqual([int4('n'), text('note')])
    expect(answer.result!.rowCount).toBe(2)
  })

  it('gives a Result a shape worked out before, with the columns described this time', () => {
    const worked = new RecordingResult()
    const shape = workOutShape(worked, [int4('n')])
    const given = new RecordingResult()
    const described = [int4('n')]

    giveShape(given, shape, described)

    expect(given.fields).toBe(described)
    expect(given.parseRow(['7'])).toEqual({ n: 7 })
  })

  it('checks each row before it is read, and ends the query with the first refusal once the run is over', () => {
    const first = probeQuery()
    backend(first.query).handleRowDescription({ fields: [int4('n'), text('note')] })
    const { query, answer } = probeQuery()
    readRowsWith(query, first.result().shape!)
    const refusal = new Error('refused')
    const seen: unknown[] = []
    checkEachRow(query, (values) => {
      seen.push(values)
      return values[0] === '6' ? refusal : undefined
    })

    backend(query).handleDataRow({ fields: ['5', 'five'] })
    backend(query).handleDataRow({ fields: ['6', 'six'] })
    backend(query).handleDataRow({ fields: ['7', 'seven'] })
    backend(query).handleReadyForQuery(memoryConnection([]))

    expect(seen).toEqual([
      ['5', 'five'],
      ['6', 'six'],
    ])
    expect(answer.error).toBe(refusal)
  })
})

describe.runIf(process.env.DATABASE_URL)('pg internals, on PostgreSQL', () => {
  let database: Database
  let client: pg.Client

  beforeEach(async () => {
    database = await createTestDatabase()
    client = new pg.Client({ connectionString: database.connectionString })
    await client.connect()
  })
  afterEach(async () => {
    await client.end()
    await database.close()
  })

  it('finds the server process of a connected client', async () => {
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid')
    expect(processIdOf(client)).toBe(rows[0]!.pid)
  })

  it('runs a statement described once again without Describe, reading its rows with the shape worked out the first time', async () => {
    const statement = { name: 'contract', text: 'select g as n, $1::text as note from generate_series(1, $2::int) g', values: ['x', 2] }
    const plain = await client.query(statement.text, statement.values)
    let shape: ResultShape | undefined
    const run = (prepare?: (query: PgQuery, connection: ReturnType<typeof connectionOf>) => void) =>
      new Promise<pg.QueryResult>((resolve, reject) => {
        const query = namedQuery(
          statement,
          (error, result) => (error ? reject(error) : resolve(result)),
          new (class extends DescribedResult {
            described(columns: pg.FieldDef[]): void {
              shape = workOutShape(this, columns)
            }
          })(),
        )
        if (prepare) replacePrepare(query, (connection) => prepare(query, connection))
        client.query(query as unknown as pg.QueryConfig)
      })

    const described = await run((query, connection) => {
      expect(parsedOn(query, connection)).toBe(false)
      prepareAsPgDoes(query, connection)
    })
    const workedOut = shape!
    shape = undefined
    const again = await run((query, connection) => {
      expect(parsedOn(query, connection)).toBe(true)
      bind(query, connection, statement.name)
      readRowsWith(query, workedOut)
      execute(query, connection)
    })

    expect(described.rows).toEqual(plain.rows)
    expect(again.rows).toEqual(plain.rows)
    expect(again.rowCount).toBe(2)
    // No row description came back, so nothing was worked out again.
    expect(shape).toBeUndefined()
  })

  it('reads the rows of a named query with the client’s type parsers, as the pool’s int8 parser is given (database.ts)', async () => {
    const typed = new pg.Client({
      connectionString: database.connectionString,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === 23 ? (value: string) => `int4 ${value}` : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    })
    await typed.connect()
    try {
      const read = await new Promise<pg.QueryResult>((resolve, reject) => {
        const query = namedQuery(
          { name: 'typed', text: 'select $1::int as n', values: [3] },
          (error, result) => (error ? reject(error) : resolve(result)),
          new RecordingResult(),
        )
        typed.query(query as unknown as pg.QueryConfig)
      })
      expect(read.rows).toEqual([{ n: 'int4 3' }])
    } finally {
      await typed.end()
    }
  })

  it('leaves the connection usable after a bind that failed, synced and ended with its error', async () => {
    const statement = { name: 'contract', text: 'select $1::int as n', values: [1] }
    await client.query(statement)
    const unsendable = {
      toPostgres: () => {
        throw new Error('cannot be sent')
      },
    }
    const failing = new Promise<pg.QueryResult>((resolve, reject) => {
      const query = namedQuery(
        { ...statement, values: [unsendable] },
        (error, result) => (error ? reject(error) : resolve(result)),
        new RecordingResult(),
      )
      replacePrepare(query, (connection) => {
        try {
          bind(query, connection, statement.name)
        } catch (error) {
          sync(connection)
          fail(query, error as Error, connection)
        }
      })
      client.query(query as unknown as pg.QueryConfig)
    })

    await expect(failing).rejects.toThrow('cannot be sent')
    expect((await client.query({ ...statement, values: [2] })).rows).toEqual([{ n: 2 }])
  })

  it('refuses a row through checkEachRow with the run otherwise completed', async () => {
    const refusal = new Error('refused')
    const refused = new Promise<pg.QueryResult>((resolve, reject) => {
      const query = namedQuery(
        { name: 'contract', text: 'select $1::int as n', values: [1] },
        (error, result) => (error ? reject(error) : resolve(result)),
        new RecordingResult(),
      )
      checkEachRow(query, () => refusal)
      client.query(query as unknown as pg.QueryConfig)
    })

    await expect(refused).rejects.toBe(refusal)
    expect((await client.query('select 1 as n')).rows).toEqual([{ n: 1 }])
  })
})

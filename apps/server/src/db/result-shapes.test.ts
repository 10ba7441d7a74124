import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../testing/test-database.ts'
import type { Database } from './database.ts'
import { ResultShapes } from './result-shapes.ts'

describe.runIf(process.env.DATABASE_URL)('result shapes of named statements, on PostgreSQL', () => {
  let database: Database
  let clients: pg.Client[]

  beforeEach(async () => {
    database = await createTestDatabase()
    clients = []
  })
  afterEach(async () => {
    await Promise.all(clients.map((client) => client.end()))
    await database.close()
  })

  /** A connection of its own: each prepares a named statement afresh. */
  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: database.connectionString })
    await client.connect()
    clients.push(client)
    return client
  }

  async function createProbe(client: pg.Client): Promise<void> {
    await client.query(`create table shape_probe (id int primary key, amount int8, at timestamptz, note text, done boolean)`)
    await client.query(
      `insert into shape_probe values (1, 9007199254740991, '2026-11-25T07:10:08.123Z', 'first', true), (2, null, null, null, null)`,
    )
  }

  /** A connection of its own, on a database with the probe table. */
  async function connectToProbe(): Promise<pg.Client> {
    const client = await connect()
    await createProbe(client)
    return client
  }

  /**
   * pg still counts 'probe' as parsed, but the server now holds another statement under that
   * name with one more column: what a transaction-mode pooler's other server connection may
   * hold after a migration.
   */
  async function prepareAgainWithAnAddedColumn(client: pg.Client): Promise<void> {
    await client.query('deallocate probe')
    await client.query(`prepare probe (int) as select *, 'added' as added from shape_probe where id >= $1 order by id`)
  }

  it('reads the rows pg reads, and works out a statement’s shape once for all connections', async () => {
    const first = await connect()
    const second = await connect()
    await createProbe(first)
    const shapes = new ResultShapes()
    const text = 'select * from shape_probe where id > $1 order by id'

    const plain = await first.query(text, [0])
    const reads = [
      await shapes.query(first, { name: 'probe', text, values: [0] }),
      await shapes.query(first, { name: 'probe', text, values: [0] }),
      await shapes.query(second, { name: 'probe', text, values: [0] }),
    ]

    for (const read of reads) {
      expect(read.rows).toEqual(plain.rows)
      expect(read.fields.map((field) => field.name)).toEqual(['id', 'amount', 'at', 'note', 'done'])
      expect(read.rowCount).toBe(2)
    }
    expect(reads[1]!.rows[0]!.at).toEqual(new Date('2026-11-25T07:10:08.123Z'))
    expect(shapes.workedOut).toBe(1)
    // Sent under its name: each connection prepared it once, on the server.
    for (const client of [first, second]) {
      const prepared = await client.query(`select name, statement from pg_prepared_statements`)
      expect(prepared.rows).toEqual([{ name: 'probe', statement: text }])
    }
  })

  it('works a shape out afresh when a statement’s columns change (a migration under a select *)', async () => {
    const before = await connectToProbe()
    const shapes = new ResultShapes()
    const text = 'select * from shape_probe where id = $1'
    await shapes.query(before, { name: 'probe', text, values: [1] })

    await before.query(`alter table shape_probe add column added text default 'added'`)
    // A connection that has not prepared the statement yet sees the new column.
    const after = await connect()
    const read = await shapes.query(after, { name: 'probe', text, values: [1] })

    expect(read.rows).toEqual([
      { id: 1, amount: '9007199254740991', at: new Date('2026-11-25T07:10:08.123Z'), note: 'first', done: true, added: 'added' },
    ])
    expect(shapes.workedOut).toBe(2)
  })

  it('asks for a description once per connection, and reads later runs with the shape described there', async () => {
    const first = await connect()
    const second = await connect()
    await createProbe(first)
    const shapes = new ResultShapes()
    const text = 'select * from shape_probe where id >= $1 order by id'
    const plain = (await first.query(text, [1])).rows

    const runs = [first, first, first, second, second, first]
    const reads = []
    for (const client of runs) reads.push(await shapes.query(client, { name: 'probe', text, values: [1] }))

    expect(shapes.describes).toBe(2)
    for (const read of reads) {
      expect(read.rows).toEqual(plain)
      expect(read.fields.map((field) => field.name)).toEqual(['id', 'amount', 'at', 'note', 'done'])
      expect(read.rowCount).toBe(2)
    }
    // Each row is a row of its own, not the shape's empty row handed out again.
    expect(reads[1]!.rows[0]).not.toBe(reads[2]!.rows[0])
  })

  it('is refused, never read in an old shape, when a table changes under a described statement', async () => {
    const client = await connectToProbe()
    const shapes = new ResultShapes()
    const text = 'select * from shape_probe where id = $1'
    await shapes.query(client, { name: 'probe', text, values: [1] })
    await shapes.query(client, { name: 'probe', text, values: [1] })

    await client.query(`alter table shape_probe add column added text default 'added'`)

    // PostgreSQL refuses the prepared statement (prepared-statements.ts then drops the connection).
    await expect(shapes.query(client, { name: 'probe', text, values: [1] })).rejects.toMatchObject({ code: '0A000' })
    expect(shapes.describes).toBe(1)
  })

  it('refuses rows of another width than described, as when a pooler prepared the name again on another server connection', async () => {
    const client = await connectToProbe()
    const shapes = new ResultShapes()
    const text = 'select * from shape_probe where id >= $1 order by id'
    await shapes.query(client, { name: 'probe', text, values: [1] })
    await prepareAgainWithAnAddedColumn(client)

    await expect(shapes.query(client, { name: 'probe', text, values: [1] })).rejects.toMatchObject({ code: '0A000' })
    expect(shapes.describes).toBe(1)
  })

  it('has every run described when told to (DATABASE_PREPARED_STATEMENTS=pooled), and so reads a statement prepared again in its new shape', async () => {
    const client = await connectToProbe()
    const shapes = new ResultShapes({ describeOnce: false })
    const text = 'select * from shape_probe where id >= $1 order by id'
    await shapes.query(client, { name: 'probe', text, values: [1] })
    await shapes.query(client, { name: 'probe', text, values: [1] })
    await prepareAgainWithAnAddedColumn(client)

    const read = await shapes.query(client, { name: 'probe', text, values: [1] })

    expect(shapes.describes).toBe(3)
    expect(read.rows[0]).toEqual({
      id: 1,
      amount: '9007199254740991',
      at: new Date('2026-11-25T07:10:08.123Z'),
      note: 'first',
      done: true,
      added: 'added',
    })
  })

  it('passes a value that cannot be sent on as an error, without describing, and leaves the connection usable', async () => {
    const client = await connectToProbe()
    const shapes = new ResultShapes()
    const text = 'select id from shape_probe where id = $1'
    await shapes.query(client, { name: 'probe', text, values: [1] })
    const unsendable = {
      toPostgres: () => {
        throw new Error('cannot be sent')
      },
    }

    await expect(shapes.query(client, { name: 'probe', text, values: [unsendable] })).rejects.toThrow('cannot be sent')
    const read = await shapes.query(client, { name: 'probe', text, values: [2] })

    expect(read.rows).toEqual([{ id: 2 }])
    expect(shapes.describes).toBe(1)
  })

  it('passes a failed statement’s error on and leaves the connection usable', async () => {
    const client = await connectToProbe()
    const shapes = new ResultShapes()
    const dividing = { name: 'divide', text: 'select id / $1::int as quotient from shape_probe' }

    await expect(shapes.query(client, { ...dividing, values: [0] })).rejects.toMatchObject({ code: '22012' })
    const read = await shapes.query(client, { ...dividing, values: [1] })

    expect(read.rows).toEqual([{ quotient: 1 }, { quotient: 2 }])
  })
})

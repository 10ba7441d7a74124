import { sql } from 'kysely'
import type pg from 'pg'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestDatabase } from '../testing/test-database.ts'
import { type Database, openPostgres } from './database.ts'
import { answer, isPgQuery, pgInternalsProblem } from './pg-internals.ts'
import { preparedStatementsModeFor, preparingPool } from './prepared-statements.ts'

/** A pg pool that answers every query and records how it was sent. */
function recordingPool(fail?: (query: { name?: string; text: string }) => Error | undefined) {
  const sent: { name?: string; text: string }[] = []
  const released: (boolean | undefined)[] = []
  const client = {
    query(textOrQuery: string | pg.QueryConfig) {
      const query = typeof textOrQuery === 'string' ? { text: textOrQuery } : { name: textOrQuery.name, text: textOrQuery.text }
      sent.push(query)
      const error = fail?.(query)
      const result = { command: 'SELECT', rowCount: 0, rows: [] }
      // A named statement comes as a pg Query (result-shapes.ts), which pg answers through its callback.
      if (isPgQuery(textOrQuery)) return answer(textOrQuery, error, result)
      return error ? Promise.reject(error) : Promise.resolve(result)
    },
    release(destroy?: boolean) {
      released.push(destroy)
    },
  }
  const pool = { options: {}, connect: () => Promise.resolve(client), end: () => Promise.resolve() } as unknown as pg.Pool
  return { pool, sent, released }
}

function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code })
}

describe('prepared statements', () => {
  // First in the file: the fallback warns once per process (here, per test file).
  it('falls back to off, warning once, when the installed pg lacks what the fast path takes from its internals', () => {
    const warnings: string[] = []
    const missing = () => 'a pg Query has no method `_getRows`'

    expect(preparedStatementsModeFor('on', missing, (message) => warnings.push(message))).toBe('off')
    expect(preparedStatementsModeFor('pooled', missing, (message) => warnings.push(message))).toBe('off')

    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /^DATABASE_PREPARED_STATEMENTS=on cannot be used with the installed pg 8\.\d+\.\d+ .*: a pg Query has no method `_getRows`\. .*DATABASE_PREPARED_STATEMENTS=off/,
    )
  })

  it('keeps the configured mode when the installed pg has what the fast path needs, and does not probe for off', () => {
    expect(preparedStatementsModeFor('on', pgInternalsProblem)).toBe('on')
    expect(preparedStatementsModeFor('pooled', pgInternalsProblem)).toBe('pooled')
    const probe = vi.fn(() => 'never asked')
    expect(preparedStatementsModeFor('off', probe)).toBe('off')
    expect(probe).not.toHaveBeenCalled()
  })

  it('names a text once it has been sent the third time, and keeps that name', async () => {
    const { pool, sent } = recordingPool()
    const client = await preparingPool(pool).connect()
    for (let i = 0; i < 5; i++) await client.query('select $1', [i])
    expect(sent.map((query) => query.name)).toEqual([undefined, undefined, 'pactum_1', 'pactum_1', 'pactum_1'])
  })

  it('names nothing with a * inside a database transaction, whose answer a new column would change', async () => {
    const { pool, sent } = recordingPool()
    const client = await preparingPool(pool, { namedAfter: 1 }).connect()
    await client.query('begin', [])
    await client.query('select * from t where id = $1', [1])
    await client.query('update t set n = $1 returning *', [1])
    await client.query('select id from t where id = $1', [1])
    await client.query('commit', [])
    await client.query('start transaction isolation level serializable', [])
    await client.query('select t.* from t where id = $1', [1])
    await client.query('insert into t (id) values ($1)', [1])
    await client.query('rollback', [])
    await client.query('select * from t where id = $1', [1])
    expect(sent.filter((query) => query.name).map((query) => query.text)).toEqual([
      'select id from t where id = $1',
      'insert into t (id) values ($1)',
      'select * from t where id = $1',
    ])
  })

  it('lets a stale statement inside a transaction fail it, and closes its connection when released', async () => {
    const gone = pgError('26000', 'prepared statement "pactum_1" does not exist')
    const { pool, sent, released } = recordingPool((query) => (query.name ? gone : undefined))
    const client = await preparingPool(pool, { namedAfter: 1 }).connect()
    await client.query('begin', [])
    // Sent again unnamed, it would only meet "current transaction is aborted".
    await expect(client.query('select id from t where id = $1', [1])).rejects.toThrow(/does not exist/)
    await client.query('rollback', [])
    await client.query('select id from t where id = $1', [2])
    client.release()
    expect(sent.map((query) => query.name)).toEqual([undefined, 'pactum_1', undefined, undefined])
    expect(released).toEqual([true])
  })

  it('leaves a statement without parameters to the simple protocol, which takes several in one text', async () => {
    const { pool, sent } = recordingPool()
    const client = await preparingPool(pool, { namedAfter: 1 }).connect()
    await client.query('set statement_timeout = 0; select 1', [])
    expect(sent).toEqual([{ text: 'set statement_timeout = 0; select 1' }])
  })

  it('forgets a transaction left open by the connection’s previous holder', async () => {
    const { pool, sent } = recordingPool()
    const preparing = preparingPool(pool, { namedAfter: 1 })
    await (await preparing.connect()).query('begin', [])
    await (await preparing.connect()).query('select $1', [1])
    expect(sent.at(-1)).toEqual({ name: 'pactum_1', text: 'select $1' })
  })

  it('names at most maxNamed texts, so one-off texts cannot fill PostgreSQL’s memory', async () => {
    const { pool, sent } = recordingPool()
    const client = await preparingPool(pool, { namedAfter: 1, maxNamed: 2 }).connect()
    for (const text of ['select $1', 'select $1 + 1', 'select $1 + 2', 'select $1']) await client.query(text, [0])
    expect(sent.map((query) => query.name)).toEqual(['pactum_1', 'pactum_2', undefined, 'pactum_1'])
  })

  it('sends a stale prepared statement again unnamed and closes its connection when released', async () => {
    const stale = pgError('0A000', 'cached plan must not change result type')
    const { pool, sent, released } = recordingPool((query) => (query.name ? stale : undefined))
    const client = await preparingPool(pool, { namedAfter: 1 }).connect()
    const text = 'select * from t where id = $1'
    await expect(client.query(text, [1])).resolves.toMatchObject({ rows: [] })
    await client.query(text, [1])
    client.release()
    expect(sent).toEqual([{ name: 'pactum_1', text }, { text }, { text }])
    expect(released).toEqual([true])
  })

  it('knows a stale statement by its code, whatever language the server answers in', async () => {
    const gone = pgError('26000', 'la sentencia preparada «pactum_1» no existe')
    const { pool, sent, released } = recordingPool((query) => (query.name ? gone : undefined))
    const client = await preparingPool(pool, { namedAfter: 1 }).connect()
    await expect(client.query('select $1', [1])).resolves.toMatchObject({ rows: [] })
    client.release()
    expect(sent).toEqual([{ name: 'pactum_1', text: 'select $1' }, { text: 'select $1' }])
    expect(released).toEqual([true])
  })

  it('passes every other error on, without sending the statement again', async () => {
    const { pool, sent, released } = recordingPool(() => pgError('23505', 'duplicate key value violates unique constraint'))
    const client = await preparingPool(pool, { namedAfter: 1 }).connect()
    await expect(client.query('insert into t values ($1)', [1])).rejects.toThrow(/duplicate key/)
    client.release()
    expect(sent).toHaveLength(1)
    expect(released).toEqual([false])
  })
})

describe.runIf(process.env.DATABASE_URL)('prepared statements on PostgreSQL', () => {
  let database: Database | undefined
  afterEach(async () => {
    await database?.close()
    database = undefined
  })

  it('keeps answering a select * after its table gains a column', async () => {
    database = await createTestDatabase()
    const { db } = database
    await sql`create table prepared_probe (id int primary key)`.execute(db)
    await sql`insert into prepared_probe values (1)`.execute(db)
    // A parameter, as every hot statement has: only those are named.
    const probe = sql`select * from prepared_probe where id > ${0}`
    const read = async (on = db) => (await probe.execute(on)).rows
    // One connection, so the reads below share the prepared statement.
    await db.connection().execute(async (connection) => {
      for (let i = 0; i < 4; i++) await read(connection)
      const prepared = await sql<{ count: number }>`select count(*)::int as count from pg_prepared_statements`.execute(connection)
      expect(prepared.rows[0]?.count).toBeGreaterThan(0)
      await sql`alter table prepared_probe add column note text default 'added'`.execute(db)
      expect(await read(connection)).toEqual([{ id: 1, note: 'added' }])
    })
    expect(await read()).toEqual([{ id: 1, note: 'added' }])
  })

  it('keeps a statement named inside transactions answering after its table gains a column', async () => {
    database = await createTestDatabase()
    const { db } = database
    await sql`create table prepared_probe (id int primary key, name text)`.execute(db)
    await sql`insert into prepared_probe values (1, 'one')`.execute(db)
    const read = (on: typeof db) => sql<{ id: number; name: string }>`select id, name from prepared_probe where id > ${0}`.execute(on)
    await db.connection().execute(async (connection) => {
      for (let i = 0; i < 4; i++) await connection.transaction().execute((trx) => read(trx))
      const prepared = await sql<{
        count: number
      }>`select count(*)::int as count from pg_prepared_statements where statement like ${'select id, name from prepared_probe%'}`.execute(
        connection,
      )
      expect(prepared.rows[0]?.count).toBe(1)
      await sql`alter table prepared_probe add column note text default 'added'`.execute(db)
      const after = await connection.transaction().execute(async (trx) => (await read(trx)).rows)
      expect(after).toEqual([{ id: 1, name: 'one' }])
    })
  })

  it('prepares nothing, and answers as before, when the installed pg fails the probe of its internals', async () => {
    database = await createTestDatabase()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const fallen = openPostgres(database.connectionString!, {
      preparedStatements: 'on',
      pgInternalsProblem: () => 'a pg Result has no `_parsers`',
    })
    try {
      expect(fallen.preparedStatements).toBe('off')
      await fallen.db.insertInto('users').values({ issuer: 'https://id.example', subject: 'ann', email: 'ann@example.com' }).execute()
      const { reads, count } = await fallen.db.connection().execute(async (connection) => {
        const reads = []
        for (let i = 0; i < 4; i++)
          reads.push(await connection.selectFrom('users').select(['subject', 'email']).where('subject', '=', 'ann').execute())
        return { reads, count: await sql<{ count: number }>`select count(*)::int as count from pg_prepared_statements`.execute(connection) }
      })
      expect(reads).toEqual(Array.from({ length: 4 }, () => [{ subject: 'ann', email: 'ann@example.com' }]))
      expect(count.rows[0]?.count).toBe(0)
    } finally {
      await fallen.close()
      vi.restoreAllMocks()
    }
  })

  it('prepares nothing when told not to (a pooler that cannot keep named statements)', async () => {
    database = await createTestDatabase()
    const unprepared = openPostgres(database.connectionString!, { preparedStatements: 'off' })
    try {
      const count = await unprepared.db.connection().execute(async (connection) => {
        for (let i = 0; i < 4; i++) await connection.selectFrom('users').select('id').where('email', '=', 'nobody@example.com').execute()
        return sql<{ count: number }>`select count(*)::int as count from pg_prepared_statements`.execute(connection)
      })
      expect(count.rows[0]?.count).toBe(0)
    } finally {
      await unprepared.close()
    }
  })
})

import { setTimeout } from 'node:timers/promises'
import pg from 'pg'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { systemClock } from '../clock.ts'
import { JobQueue } from '../jobs/job-queue.ts'
import { createTestDatabase } from '../testing/test-database.ts'
import type { Database } from './database.ts'
import { namingPgClient } from './naming-pg-client.ts'

describe.runIf(process.env.DATABASE_URL)('a pg Client that names hot statements, on PostgreSQL', () => {
  let database: Database | undefined
  let pool: pg.Pool | undefined
  afterEach(async () => {
    await pool?.end()
    await database?.close()
    pool = undefined
    database = undefined
  })

  async function namingPool(stats: { named: number }) {
    database = await createTestDatabase()
    // One connection, so that every statement below meets the same prepared ones.
    pool = new pg.Pool({ connectionString: database.connectionString!, max: 1, Client: namingPgClient(stats) })
    return pool
  }

  it('names a text with parameters from its third sending on, through the pool’s callback form, with the same answers', async () => {
    const stats = { named: 0 }
    const named = await namingPool(stats)
    const answers = []
    for (let i = 0; i < 5; i++) answers.push((await named.query<{ n: number }>('select $1::int + 1 as n', [i])).rows[0]?.n)
    expect(answers).toEqual([1, 2, 3, 4, 5])
    expect(stats.named).toBe(3)
    const prepared = await named.query<{ statement: string }>('select statement from pg_prepared_statements')
    expect(prepared.rows.map((row) => row.statement)).toEqual(['select $1::int + 1 as n'])
    // Texts without parameters are left to the simple protocol (several statements in one text).
    await named.query('select 1; select 2')
  })

  it('sends a statement gone stale again unnamed, and names nothing more on that connection', async () => {
    const stats = { named: 0 }
    const named = await namingPool(stats)
    await named.query('create table naming_probe (id int primary key)')
    await named.query('insert into naming_probe values (1)')
    const read = async () => (await named.query('select * from naming_probe where id > $1', [0])).rows
    for (let i = 0; i < 3; i++) await read()
    expect(stats.named).toBe(1)
    await named.query("alter table naming_probe add column note text default 'added'")
    expect(await read()).toEqual([{ id: 1, note: 'added' }])
    expect(await read()).toEqual([{ id: 1, note: 'added' }])
    expect(stats.named).toBe(2)
  })

  it('is the client of pg-boss’s own pool: its fetches and completions go named', async () => {
    database = await createTestDatabase()
    const stats = { named: 0 }
    const jobs = await JobQueue.start({ database, clock: systemClock, log: pino({ level: 'silent' }), namingClient: namingPgClient(stats) })
    try {
      await jobs.createQueue('test-named', { concurrency: 1 })
      let ran = 0
      await jobs.work('test-named', async () => {
        ran += 1
      })
      await jobs.startWorkers()
      for (let i = 0; i < 6; i++) {
        await jobs.send('test-named', { i })
        await setTimeout(20)
      }
      await expect.poll(() => ran, { timeout: 15_000, interval: 50 }).toBe(6)
      expect(stats.named).toBeGreaterThan(0)
    } finally {
      await jobs.stop()
    }
  })
})

import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { type Database, openDatabase, openPostgres } from '../apps/server/src/db/database.ts'
import { migrateToLatest } from '../apps/server/src/db/migrations.ts'

/**
 * A fresh, migrated database for one benchmark run, on either engine:
 * PGlite in a temporary directory, or a database of its own on the
 * PostgreSQL server at BENCH_DATABASE_URL (else DATABASE_URL, else the
 * local one), dropped afterwards.
 */

export type EngineName = 'pglite' | 'postgres'

export interface BenchDatabase {
  database: Database
  /** What the server needs to use it: DATA_DIR (and DATABASE_URL). */
  env: Record<string, string>
  dispose(): Promise<void>
}

export const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export async function openBenchDatabase(engine: EngineName, purpose: string): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `pactum-${purpose}-`))
  if (engine === 'pglite') {
    const database = await openDatabase({ databaseUrl: undefined, dataDir })
    await migrateToLatest(database.db)
    return { database, env: { DATA_DIR: dataDir }, dispose: () => rm(dataDir, { recursive: true, force: true }) }
  }
  const name = `pactum_${purpose}_${randomBytes(4).toString('hex')}`
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`))
  const url = new URL(postgresUrl)
  url.pathname = `/${name}`
  const database = openPostgres(url.toString())
  await migrateToLatest(database.db)
  return {
    database,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    dispose: async () => {
      // The pools have let go of their connections; give their backends a moment to end before forcing the rest.
      await sleep(500)
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export async function postgresReachable(): Promise<boolean> {
  try {
    await withAdmin((admin) => admin.query('select 1'))
    return true
  } catch {
    return false
  }
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  try {
    return await work(admin)
  } finally {
    await admin.end()
  }
}

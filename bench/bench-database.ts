import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { type Database, openDatabase, openPostgres } from '../apps/server/src/db/database.ts'
import { migrateToLatest } from '../apps/server/src/db/migrations.ts'
import { postgresReachable, withPostgresAdmin } from '../apps/server/src/db/postgres-admin.ts'

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

/**
 * A benchmark drives one user's creates and reads far past a person's pace
 * (issue 30's per-user limits would answer 429): its server counts no limit
 * it could reach.
 */
const unlimited = { TRANSACTION_CREATES_PER_HOUR: '1000000', LISTING_CREATES_PER_HOUR: '1000000', LIST_READS_PER_MINUTE: '1000000' }

export const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/**
 * `migrate: false` leaves the schema to the server that will use the database: bench:compare's
 * base commit may know fewer (or differently named) migrations than this tree.
 */
export async function openBenchDatabase(engine: EngineName, purpose: string, { migrate = true } = {}): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `pactum-${purpose}-`))
  if (engine === 'pglite') {
    const database = await openDatabase({ databaseUrl: undefined, dataDir })
    if (migrate) await migrateToLatest(database.db)
    return { database, env: { DATA_DIR: dataDir, ...unlimited }, dispose: () => rm(dataDir, { recursive: true, force: true }) }
  }
  const name = `pactum_${purpose}_${randomBytes(4).toString('hex')}`
  await withPostgresAdmin(postgresUrl, (admin) => admin.query(`CREATE DATABASE ${name}`))
  const url = new URL(postgresUrl)
  url.pathname = `/${name}`
  const database = openPostgres(url.toString())
  if (migrate) await migrateToLatest(database.db)
  return {
    database,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString(), ...unlimited },
    dispose: async () => {
      // The pools have let go of their connections; give their backends a moment to end before forcing the rest.
      await sleep(500)
      await withPostgresAdmin(postgresUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Whether the benchmarks' PostgreSQL server answers. */
export function benchPostgresReachable(): Promise<boolean> {
  return postgresReachable(postgresUrl)
}

export interface BenchEngine {
  name: EngineName
  open(): Promise<BenchDatabase>
}

/** The two engines by name, each opening databases named for `purpose`. */
export function benchEngines(purpose: string): Record<string, BenchEngine> {
  return {
    pglite: { name: 'pglite', open: () => openBenchDatabase('pglite', purpose) },
    postgres: { name: 'postgres', open: () => openBenchDatabase('postgres', purpose) },
  }
}

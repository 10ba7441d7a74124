import type { PreparedStatementsMode } from '../config.ts'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely'
import pg from 'pg'
import { pgInternalsProblem } from './pg-internals.ts'
import { preparedStatementsModeFor, preparingPool } from './prepared-statements.ts'
import type { Database as Tables } from './schema.ts'

export type DatabaseKind = 'pglite' | 'postgres'

export interface Database {
  db: Kysely<Tables>
  kind: DatabaseKind
  /** The embedded engine itself (PGlite only), for pg-boss and dumps. */
  pglite?: PGlite
  /** PostgreSQL only: where pg-boss opens its own pool. */
  connectionString?: string
  /** PostgreSQL only: how statements are sent, `off` if the configured mode could not be used (prepared-statements.ts). */
  preparedStatements?: PreparedStatementsMode
  close(): Promise<void>
}

const INT8 = 20

/**
 * int8 comes back as a number from PGlite and as a string from pg; both are
 * made to give a number, and refuse a value that a number cannot hold exactly
 * (money is in minor units and never gets near 2^53).
 */
function parseInt8(value: string): number {
  const parsed = Number(value)
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`int8 value ${value} exceeds the safe integer range`)
  return parsed
}

export const pgliteParsers = { [INT8]: parseInt8 }

export async function openPglite(dataDir: string): Promise<PGlite> {
  const dir = path.join(dataDir, 'db')
  await mkdir(dir, { recursive: true })
  return PGlite.create({ dataDir: dir, parsers: pgliteParsers })
}

export function fromPglite(pglite: PGlite): Database {
  return {
    db: new Kysely<Tables>({ dialect: new PGliteDialect({ pglite }) }),
    kind: 'pglite',
    pglite,
    close: async () => {
      if (!pglite.closed) await pglite.close()
    },
  }
}

/**
 * `preparedStatements`: `on` (the default) for connections straight to PostgreSQL; `pooled` behind a
 * transaction-mode pooler that keeps prepared statements; `off` behind one that cannot (db/prepared-statements.ts).
 * `on` and `pooled` fall back to `off` when the installed pg fails `pgInternalsProblem` (pg-internals.ts);
 * tests hand in a failing one.
 */
export function openPostgres(
  databaseUrl: string,
  options: { preparedStatements?: PreparedStatementsMode; pgInternalsProblem?: () => string | undefined } = {},
): Database {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8 ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, types })
  // An idle client losing its connection (a database restart, a failover)
  // must not crash the process; the pool replaces it on the next checkout.
  pool.on('error', (error) => {
    console.error('PostgreSQL pool: idle connection failed:', error.message)
  })
  const mode = preparedStatementsModeFor(options.preparedStatements ?? 'on', options.pgInternalsProblem ?? pgInternalsProblem)
  const dialectPool = mode === 'off' ? pool : preparingPool(pool, { describeOnce: mode === 'on' })
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: dialectPool }) })
  return { db, kind: 'postgres', connectionString: databaseUrl, preparedStatements: mode, close: () => db.destroy() }
}

/** PostgreSQL when DATABASE_URL is set, otherwise PGlite in DATA_DIR/db. */
export async function openDatabase(options: {
  databaseUrl: string | undefined
  dataDir: string
  preparedStatements?: PreparedStatementsMode
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options)
  return fromPglite(await openPglite(options.dataDir))
}

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
  /**
   * Where reads that may lag go (DATABASE_READ_URL, a streaming replica of the primary), only through
   * db/replica-reads.ts, which checks that the replica has caught up first. The primary's `db` when no
   * replica is configured, and always on PGlite.
   */
  read: Kysely<Tables>
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
  const db = new Kysely<Tables>({ dialect: new PGliteDialect({ pglite }) })
  return {
    db,
    read: db,
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
  options: {
    preparedStatements?: PreparedStatementsMode
    pgInternalsProblem?: () => string | undefined
    /** A streaming replica of that database, for the reads db/replica-reads.ts sends there. */
    readUrl?: string | undefined
  } = {},
): Database {
  const mode = preparedStatementsModeFor(options.preparedStatements ?? 'on', options.pgInternalsProblem ?? pgInternalsProblem)
  const db = postgresKysely(databaseUrl, mode, { max: 10 })
  // The replica's own small pool: it serves only lists. A replica that stops answering must neither take the
  // primary's connections nor hold a read for long: a connection not made within 2 s sends the read to the primary.
  const read = options.readUrl ? postgresKysely(options.readUrl, mode, { max: 5, connectionTimeoutMillis: 2000 }) : db
  return {
    db,
    read,
    kind: 'postgres',
    connectionString: databaseUrl,
    preparedStatements: mode,
    close: async () => {
      if (read !== db) await read.destroy()
      await db.destroy()
    },
  }
}

/** One pool on one server, with the int8 parser and the statement mode every Pactum connection has. */
function postgresKysely(url: string, mode: PreparedStatementsMode, sizes: PoolSizes): Kysely<Tables> {
  return new Kysely<Tables>({ dialect: postgresDialect(url, mode, sizes) })
}

export interface PoolSizes {
  max: number
  connectionTimeoutMillis?: number
}

/** Exported for tests that need a second Kysely of their own on a test database (the replica routing tests). */
export function postgresDialect(url: string, mode: PreparedStatementsMode, sizes: PoolSizes): PostgresDialect {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8 ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  }
  const pool = new pg.Pool({ connectionString: url, ...sizes, types })
  // An idle client losing its connection (a database restart, a failover)
  // must not crash the process; the pool replaces it on the next checkout.
  pool.on('error', (error) => {
    console.error('PostgreSQL pool: idle connection failed:', error.message)
  })
  return new PostgresDialect({ pool: mode === 'off' ? pool : preparingPool(pool, { describeOnce: mode === 'on' }) })
}

/** PostgreSQL when DATABASE_URL is set (and its replica when DATABASE_READ_URL is), otherwise PGlite in DATA_DIR/db. */
export async function openDatabase(options: {
  databaseUrl: string | undefined
  databaseReadUrl?: string | undefined
  dataDir: string
  preparedStatements?: PreparedStatementsMode
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, { ...options, readUrl: options.databaseReadUrl })
  return fromPglite(await openPglite(options.dataDir))
}

import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import type pg from 'pg'
import { fromPglite as fromPgliteForJobs, PgBoss } from 'pg-boss'
import { expect } from 'vitest'
import { type Database, fromPglite, openPostgres, pgliteParsers } from '../db/database.ts'
import { withPostgresAdmin } from '../db/postgres-admin.ts'
import { migrateToLatest, schemaFingerprint } from '../db/migrations.ts'
import { isEngineIndependentTestFile } from './engine-independent-tests.ts'

/**
 * A fresh, migrated database for one test. PGlite by default: cloned from a
 * migrated template (initdb and the migrations cost seconds, a clone far
 * less). Under Vitest the template is built once for the whole run
 * (pglite-template-setup.ts) and read from a file; elsewhere, once per
 * process. With DATABASE_URL set, a copy of a migrated template database on
 * that server, dropped after.
 */
let template: Promise<File | Blob> | undefined

function migratedTemplate(): Promise<File | Blob> {
  template ??= buildPgliteTemplate()
  return template
}

/** A migrated PGlite data directory with pg-boss's schema, as a dump any engine can start from. */
export async function buildPgliteTemplate(): Promise<File | Blob> {
  const database = fromPglite(await PGlite.create({ parsers: pgliteParsers }))
  await migrateToLatest(database.db)
  await installJobQueueSchema(database.pglite!)
  const dump = await database.pglite!.dumpDataDir('none')
  await database.close()
  return dump
}

/** Makes this process clone its PGlite databases from a template dump written to `file` beforehand. */
export function usePgliteTemplateFile(file: string): void {
  template = readFile(file).then((bytes) => new Blob([bytes]))
}

/** pg-boss's own schema, installed once here rather than by every test app's queue at start-up. */
async function installJobQueueSchema(pglite: PGlite): Promise<void> {
  const boss = new PgBoss({ db: fromPgliteForJobs(pglite), backend: 'pglite', supervise: false, schedule: false })
  await boss.start()
  // The caller closes the engine; pg-boss must not close it under the dump.
  await boss.stop({ graceful: false, close: false })
}

/**
 * On PostgreSQL the template is a database of its own, named by the schema's
 * fingerprint and kept on the server: copying it is much faster than
 * migrating and installing pg-boss for every test. It is built under a
 * temporary name and renamed when complete, so a worker that finds it by
 * name never copies a half-built one (nor one with a connection open, which
 * PostgreSQL refuses to copy).
 */
let postgresTemplateName: Promise<string> | undefined

function postgresTemplate(url: string): Promise<string> {
  postgresTemplateName ??= (async () => {
    const name = `pactum_template_${schemaFingerprint()}`
    const found = await withPostgresAdmin(url, (admin) => admin.query('select 1 from pg_database where datname = $1', [name]))
    if (found.rowCount === 1) return name

    const building = `pactum_building_${randomBytes(6).toString('hex')}`
    await withPostgresAdmin(url, (admin) => admin.query(`CREATE DATABASE ${building}`))
    const database = openPostgres(databaseUrl(url, building))
    await migrateToLatest(database.db)
    const boss = new PgBoss({ connectionString: databaseUrl(url, building), max: 1, supervise: false, schedule: false })
    await boss.start()
    await boss.stop({ graceful: false, close: true })
    await database.close()
    await withPostgresAdmin(url, async (admin) => {
      await waitForNoConnections(admin, building)
      try {
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`)
      } catch (error) {
        // Another worker finished its template first: use that one. PostgreSQL says 42P04 (the name is
        // taken), or 23505 when both renames reach its catalog at once (seen in CI on a fresh server).
        if (!['42P04', '23505'].includes((error as { code?: string }).code ?? '')) throw error
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)
      }
    })
    return name
  })()
  return postgresTemplateName
}

function databaseUrl(url: string, name: string): string {
  const result = new URL(url)
  result.pathname = `/${name}`
  return result.toString()
}

/** A pool's sockets may still be closing after it ended; FORCE would kill them mid-flight and their clients report 57P01. */
async function waitForNoConnections(admin: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
      name,
    ])
    if (rows[0]?.n === 0) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export async function createTestDatabase(): Promise<Database> {
  refuseEngineIndependentFile()
  const url = process.env.DATABASE_URL
  if (url) return createPostgresTestDatabase(url)
  return pgliteTestDatabase()
}

/** A file CI runs on PGlite only must not open a database (engine-independent-tests.ts). */
function refuseEngineIndependentFile(): void {
  // Only under Vitest: `npm run fuzz` opens a test app too, and Vitest's state throws outside its workers.
  if (!process.env.VITEST) return
  const testPath = expect.getState().testPath
  if (testPath && isEngineIndependentTestFile(testPath)) {
    throw new Error(
      `${testPath} opens a database, but testing/engine-independent-tests.ts names it, so CI's PostgreSQL pass would never run it: take it out of that list`,
    )
  }
}

/**
 * Engines of finished tests, kept for this worker's next test: starting a
 * PGlite and loading the template costs more than most tests, while emptying
 * every table takes a few milliseconds. A test that closed the engine itself
 * (Kysely's destroy does) leaves nothing to keep.
 */
const idleEngines: PGlite[] = []

async function pgliteTestDatabase(): Promise<Database> {
  let pglite = idleEngines.pop()
  while (pglite?.closed) pglite = idleEngines.pop()
  if (pglite) await emptyAllTables(pglite)
  else pglite = await PGlite.create({ loadDataDir: await migratedTemplate(), parsers: pgliteParsers })
  const engine = pglite
  return {
    ...fromPglite(engine),
    close: async () => {
      if (!engine.closed) idleEngines.push(engine)
    },
  }
}

/** How many times an engine is emptied by DELETE before a TRUNCATE gives its dead rows' space back. */
const deletesBetweenTruncates = 20
const timesEmptied = new WeakMap<PGlite, number>()

/** Every table a test may have written: the schema's, and pg-boss's but its schema version. */
const tablesOfTheTestsQuery = `select format('%I.%I', schemaname, tablename) as name from pg_tables
   where (schemaname = 'public' and tablename not like 'kysely_migration%')
      or (schemaname = 'pgboss' and tablename <> 'version')
   order by 1`
const sequencesQuery = `select format('%I.%I', schemaname, sequencename) as name from pg_sequences
   where schemaname in ('public', 'pgboss')`

/**
 * Back to the template's state: the schema and its migration record,
 * pg-boss's schema version, no rows, sequences from 1. DELETE, with foreign
 * keys and triggers off for the session, rather than TRUNCATE: PGlite's
 * TRUNCATE makes new files for every table in its in-memory file system,
 * about four times the cost (55 against 15 ms measured) on every test. Every
 * so often a TRUNCATE still runs, so dead rows do not pile up.
 */
async function emptyAllTables(pglite: PGlite): Promise<void> {
  const { rows: tables } = await pglite.query<{ name: string }>(tablesOfTheTestsQuery)
  const times = (timesEmptied.get(pglite) ?? 0) + 1
  timesEmptied.set(pglite, times)
  if (times % deletesBetweenTruncates === 0) {
    await pglite.exec(`truncate ${tables.map((table) => table.name).join(', ')} restart identity cascade`)
    return
  }
  const { rows: sequences } = await pglite.query<{ name: string }>(sequencesQuery)
  await pglite.exec(emptyingScript(tables, sequences))
}

/** DELETE from every table with foreign keys and triggers off for the session (which needs a superuser), then every sequence from 1. */
function emptyingScript(tables: readonly { name: string }[], sequences: readonly { name: string }[]): string {
  return [
    'set session_replication_role = replica;',
    ...tables.map((table) => `delete from ${table.name};`),
    ...sequences.map((sequence) => `select setval('${sequence.name}', 1, false);`),
    'set session_replication_role = default;',
  ].join('\n')
}

/**
 * Databases of this file's finished tests on the PostgreSQL server, kept for
 * its next test (the server files share a worker's module state, but every
 * file's end drops what it left, so this is per file): copying the template
 * and dropping the copy took about 0.8 s a test on a busy two-core machine,
 * emptying a copy about 0.1 s. The copies left when the file ends are
 * dropped then (pglite-template-file.ts).
 */
const idlePostgresDatabases: string[] = []
/** The template's tables, as a copy of it lists them: a copy whose tables differ (a test made one) is dropped, not reused. */
let templateTables: string | undefined

async function createPostgresTestDatabase(url: string): Promise<Database> {
  const name = (await reusedPostgresDatabase(url)) ?? (await copyOfTemplate(url))
  const database = openPostgres(databaseUrl(url, name))
  return {
    ...database,
    close: async () => {
      await database.close()
      idlePostgresDatabases.push(name)
    },
  }
}

async function copyOfTemplate(url: string): Promise<string> {
  const templateName = await postgresTemplate(url)
  const name = `pactum_test_${randomBytes(6).toString('hex')}`
  await withPostgresAdmin(url, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateName}`))
  if (templateTables === undefined) {
    const { rows } = await withPostgresAdmin(databaseUrl(url, name), (client) => client.query<{ name: string }>(tablesOfTheTestsQuery))
    templateTables = namesOf(rows)
  }
  return name
}

/** An idle copy, emptied, with no connection left from its last test (a server a test started and killed, say). */
async function reusedPostgresDatabase(url: string): Promise<string | undefined> {
  const name = idlePostgresDatabases.pop()
  if (name === undefined) return undefined
  const emptied = await withPostgresAdmin(databaseUrl(url, name), async (client) => {
    await waitForNoConnections(client, name)
    await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name])
    const { rows: tables } = await client.query<{ name: string }>(tablesOfTheTestsQuery)
    if (namesOf(tables) !== templateTables) return false
    const { rows: sequences } = await client.query<{ name: string }>(sequencesQuery)
    await client.query(emptyingScript(tables, sequences))
    return true
  })
  if (emptied) return name
  await dropPostgresDatabase(url, name)
  return reusedPostgresDatabase(url)
}

function namesOf(tables: readonly { name: string }[]): string {
  return tables.map((table) => table.name).join(',')
}

/** Drops the copies this file's tests left idle: called once the file's tests are done. */
export async function dropIdlePostgresDatabases(): Promise<void> {
  const url = process.env.DATABASE_URL
  if (!url) return
  for (const name of idlePostgresDatabases.splice(0)) await dropPostgresDatabase(url, name)
}

async function dropPostgresDatabase(url: string, name: string): Promise<void> {
  await withPostgresAdmin(url, async (admin) => {
    await waitForNoConnections(admin, name)
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })
}

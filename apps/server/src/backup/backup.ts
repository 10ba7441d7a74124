import { execFile } from 'node:child_process'
import { access, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import type { Database } from '../db/database.ts'
import { pgliteParsers } from '../db/database.ts'

/**
 * Backups that restore (issue 37). The embedded database (PGlite) is
 * dumped from the process that holds it: `dumpDataDir` copies its whole
 * data directory as a gzipped tar between two statements, so the copy is
 * consistent (every transaction committed before it, none after). A
 * PostgreSQL database is dumped by `pg_dump` in its custom format, which
 * reads one snapshot while the server goes on writing.
 *
 * A restore builds a new place and never writes over an existing one: a
 * new data directory for PGlite, an empty database for PostgreSQL.
 */

const run = promisify(execFile)

export type BackupKind = 'pglite' | 'postgres'

/** The kind a backup file holds, by its first bytes: gzip (PGlite's tar) or pg_dump's `PGDMP`. */
export async function backupKindOf(file: string): Promise<BackupKind> {
  const head = (await readFile(file)).subarray(0, 5)
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite'
  if (head.toString('latin1') === 'PGDMP') return 'postgres'
  throw new Error(`${file} is neither a PGlite backup (gzip) nor a pg_dump custom-format file`)
}

/** A PGlite backup's bytes, taken in the process that has the database open. */
export async function dumpPglite(pglite: PGlite): Promise<Buffer> {
  const dump = await pglite.dumpDataDir('gzip')
  return Buffer.from(await dump.arrayBuffer())
}

/** Writes the database's backup to `file` (through a temporary name, so a failed backup leaves no half file). */
export async function backupDatabase(database: Database, file: string): Promise<BackupKind> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true })
  const partial = `${file}.partial`
  if (database.kind === 'pglite') {
    if (!database.pglite) throw new Error('the embedded database is not open in this process')
    await writeFile(partial, await dumpPglite(database.pglite))
  } else {
    if (!database.connectionString) throw new Error('no PostgreSQL connection string')
    await run('pg_dump', ['--format=custom', '--no-owner', `--file=${partial}`, database.connectionString])
  }
  await rename(partial, file)
  return database.kind
}

async function exists(place: string): Promise<boolean> {
  return access(place).then(
    () => true,
    () => false,
  )
}

/** A new DATA_DIR whose database is the backup's: `<dataDir>/db`, which must not exist yet. */
export async function restorePglite(file: string, dataDir: string): Promise<void> {
  const dir = path.join(dataDir, 'db')
  if (await exists(dir)) throw new Error(`${dir} exists already: restore into a new data directory`)
  await mkdir(dataDir, { recursive: true })
  const pglite = await PGlite.create({ dataDir: dir, parsers: pgliteParsers, loadDataDir: new Blob([await readFile(file)]) })
  await pglite.close()
}

/** The backup loaded into an empty PostgreSQL database (`pg_restore` exits non-zero on anything it could not restore). */
export async function restorePostgres(file: string, databaseUrl: string): Promise<void> {
  await run('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${databaseUrl}`, file])
}

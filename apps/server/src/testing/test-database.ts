import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { type Database, fromPglite, openPostgres, pgliteParsers } from '../db/database.ts'
import { migrateToLatest } from '../db/migrations.ts'

/**
 * A fresh, migrated database for one test. PGlite by default: migrated once
 * per worker into a template and cloned (initdb costs seconds, a clone far
 * less). With DATABASE_URL set, a new database on that server, dropped after.
 */
let template: Promise<File | Blob> | undefined

async function migratedTemplate(): Promise<File | Blob> {
  template ??= (async () => {
    const database = fromPglite(await PGlite.create({ parsers: pgliteParsers }))
    await migrateToLatest(database.db)
    const dump = await database.pglite!.dumpDataDir('none')
    await database.close()
    return dump
  })()
  return template
}

export async function createTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL
  if (url) return createPostgresTestDatabase(url)
  return fromPglite(await PGlite.create({ loadDataDir: await migratedTemplate(), parsers: pgliteParsers }))
}

async function createPostgresTestDatabase(url: string): Promise<Database> {
  const name = `pactum_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const testUrl = new URL(url)
  testUrl.pathname = `/${name}`
  const database = openPostgres(testUrl.toString())
  await migrateToLatest(database.db)
  return {
    ...database,
    close: async () => {
      await database.close()
      const cleanup = new pg.Client({ connectionString: url })
      await cleanup.connect()
      // The pool's sockets may still be closing; FORCE would then kill them
      // mid-flight and their clients report 57P01. Wait for them to go first.
      for (let attempt = 0; attempt < 50; attempt++) {
        const { rows } = await cleanup.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name])
        if (rows[0]?.n === 0) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await cleanup.end()
    },
  }
}

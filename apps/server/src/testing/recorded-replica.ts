import { Kysely, type LogEvent, PGliteDialect } from 'kysely'
import { type Database, postgresDialect } from '../db/database.ts'
import type { Database as Tables } from '../db/schema.ts'

/**
 * A stand-in read replica for the routing tests: a second Kysely on the
 * test database itself that notes the SQL of every statement it runs
 * (Kysely's `log`, below the statements compiled once, which plugins never
 * see). The test says how far it has replayed (AppOptions.replayedLsn).
 *
 * On PGlite both Kysely share the one engine and its one session: fine for
 * requests made one after another, as these tests make them.
 */
export function recordedReplica(database: Database): { database: Database; take(): string[] } {
  const statements: string[] = []
  const log = (event: LogEvent) => {
    statements.push(event.query.sql)
  }
  const read =
    database.kind === 'pglite' && database.pglite
      ? new Kysely<Tables>({ dialect: new PGliteDialect({ pglite: database.pglite }), log })
      : new Kysely<Tables>({ dialect: postgresDialect(String(database.connectionString), 'off', { max: 2 }), log })
  return {
    database: {
      ...database,
      read,
      close: async () => {
        // Destroying a PGlite dialect's Kysely closes the engine: the test database's own close keeps it for the next test.
        if (database.kind === 'postgres') await read.destroy()
        await database.close()
      },
    },
    /** Every statement's SQL since the last call. */
    take: () => statements.splice(0),
  }
}

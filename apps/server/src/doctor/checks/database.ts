import { sql } from 'kysely'
import type { Config } from '../../config.ts'
import { openDatabase } from '../../db/database.ts'
import { pendingMigrations } from '../../db/migrations.ts'
import { replicaState } from '../../db/replica-reads.ts'
import { answered, type Check, failed, ok, type ProviderReport, warning } from '../report.ts'

/**
 * The database: PGlite in DATA_DIR (embedded, one process) or PostgreSQL.
 * Opened only for PostgreSQL: an embedded database may be held by the
 * running server, and a second process must not open it.
 */
export async function checkDatabase(config: Config): Promise<ProviderReport> {
  if (!config.databaseUrl) {
    return {
      service: 'database',
      mode: 'embedded',
      summary: `PGlite in ${config.dataDir} (one server process; not for production)`,
      checks: [],
    }
  }
  const url = new URL(config.databaseUrl)
  const summary = `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined
  const checks: Check[] = []
  try {
    database = await openDatabase(config)
    const opened = database
    checks.push(
      await answered('the server answers', async () => {
        const { rows } = await sql<{ version: string }>`select current_setting('server_version') as version`.execute(opened.db)
        return `version ${rows[0]?.version ?? 'unknown'}`
      }),
    )
    if (checks[0]?.outcome === 'ok') {
      const pending = await pendingMigrations(opened.db)
      checks.push(
        pending.length === 0
          ? ok('migrations', 'up to date')
          : warning('migrations', `${pending.length} to apply (the server applies them at start-up): ${pending.join(', ')}`),
      )
      if (config.databaseReadUrl) {
        checks.push(
          await answered('the read replica (DATABASE_READ_URL)', async () => {
            const state = await replicaState(opened.db, opened.read)
            // The server would still answer every list, from the primary (decision 123): a setting that does nothing.
            if (!state.standby)
              throw new Error('answers, but is not a standby replaying the primary: every list would be read from the primary')
            return `a standby, ${state.behindBytes} bytes of WAL behind the primary`
          }),
        )
      }
    }
  } catch (error) {
    checks.push(failed('the server answers', error instanceof Error ? error.message : String(error)))
  } finally {
    await database?.close()
  }
  return { service: 'database', mode: 'real', summary, checks }
}

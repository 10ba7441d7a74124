import { ConfigError, loadConfig } from './config.ts'
import { armCrashPoint } from './crash-points.ts'
import { openDatabase } from './db/database.ts'
import { migrateToLatest } from './db/migrations.ts'
import { buildApp } from './http/app.ts'

/** Starts Pactum (through main.ts): configuration, database and migrations, then one HTTP server on one port. */
async function main(): Promise<void> {
  // Milliseconds since the process started (performance's time origin): how long each step of a start takes.
  const startup: Record<string, number> = { imported: Math.round(performance.now()) }
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(78)
    }
    throw error
  }
  armCrashPoint(config.crashPoint)
  const database = await openDatabase(config)
  startup.databaseOpened = Math.round(performance.now())
  await migrateToLatest(database.db)
  startup.migrated = Math.round(performance.now())
  let app: Awaited<ReturnType<typeof buildApp>>
  try {
    app = await buildApp({ config, database })
  } catch (error) {
    // A bad partner clients file (config/clients.json or CLIENTS_FILE): say which field, not a stack.
    if (error instanceof ConfigError) {
      console.error(error.message)
      await database.close()
      process.exit(78)
    }
    throw error
  }

  startup.built = Math.round(performance.now())

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    // Stop taking requests first, then let the database flush (PGlite writes its files on close).
    await app.close()
    await database.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  await app.listen({ port: config.port, host: config.host })
  startup.listening = Math.round(performance.now())
  app.log.info(
    { url: config.publicUrl, database: database.kind, signIn: config.oidc.mode, startupMs: startup },
    `Pactum is serving on ${config.publicUrl}`,
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

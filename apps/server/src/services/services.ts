import type { Kysely } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Config } from '../config.ts'
import type { DatabaseKind } from '../db/database.ts'
import type { Database } from '../db/schema.ts'

/** What every use case may reach: handed to routes as `app.services`. */
export interface Services {
  config: Config
  db: Kysely<Database>
  databaseKind: DatabaseKind
  clock: Clock
}

import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.ts'

/** The server's long-lived secrets by name, each a JSON value (server-secrets.ts). */

export async function findServerSecret(db: Kysely<Database>, name: string): Promise<{ value: unknown } | undefined> {
  return db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst()
}

/** Keeps `value` unless a secret of that name exists already (another process stored it first). */
export async function insertServerSecretIfAbsent(db: Kysely<Database>, name: string, value: string): Promise<void> {
  await db
    .insertInto('server_secrets')
    .values({ name, value })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
}

/** The stored secret; throws when there is none. */
export async function readServerSecret(db: Kysely<Database>, name: string): Promise<{ value: unknown }> {
  return db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow()
}

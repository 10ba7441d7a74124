import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/** Keeps `value` under `name` unless a value is kept there already (the first writer wins). */
export async function insertServerSecretIfAbsent(db: Kysely<Database>, name: string, value: string): Promise<void> {
  await db
    .insertInto('server_secrets')
    .values({ name, value })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
}

export async function serverSecretValue(db: Kysely<Database>, name: string): Promise<unknown> {
  const stored = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow()
  return stored.value
}

import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'

/**
 * The server's long-lived secrets by name (`server_secrets`), each a JSON
 * value: the sign-in's signing and cookie keys, the sandbox's webhook
 * secret, the key of the invitations' stop links. The first process that
 * needs one makes it: insert if absent, then read back, so that processes
 * starting together on one database agree on the value.
 */
export async function loadOrCreateServerSecret<Value>(db: Kysely<Database>, name: string, create: () => Value): Promise<Value> {
  const existing = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst()
  if (existing) return jsonValue<Value>(existing.value)
  await db
    .insertInto('server_secrets')
    .values({ name, value: JSON.stringify(create()) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
  const stored = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow()
  return jsonValue<Value>(stored.value)
}

/** `jsonb` comes back parsed from both engines; a driver that hands back the text is read too. */
function jsonValue<Value>(value: unknown): Value {
  return (typeof value === 'string' ? JSON.parse(value) : value) as Value
}

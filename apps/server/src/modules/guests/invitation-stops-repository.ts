import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * What "stop invitations to this address" stores (invitation-stops.ts): the
 * server secret its tokens are made with, and the SHA-256 of each token
 * followed. Neither an address nor a usable token is ever stored here.
 */

const secretName = 'invitation_stop_key'

/** `key` base64url. Insert-if-absent, then readStopKey: every process on the database gets the first value written. */
export async function insertStopKeyIfAbsent(db: Kysely<Database>, key: string): Promise<void> {
  await db
    .insertInto('server_secrets')
    .values({ name: secretName, value: JSON.stringify({ key }) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
}

/** The stored key, base64url. */
export async function readStopKey(db: Kysely<Database>): Promise<string> {
  const stored = await db.selectFrom('server_secrets').select('value').where('name', '=', secretName).executeTakeFirstOrThrow()
  const value = (typeof stored.value === 'string' ? JSON.parse(stored.value) : stored.value) as { key: string }
  return value.key
}

export async function isAddressHashStopped(db: Kysely<Database>, addressHash: string): Promise<boolean> {
  const row = await db.selectFrom('stopped_invitation_addresses').select('address_hash').where('address_hash', '=', addressHash).executeTakeFirst()
  return row !== undefined
}

/** Recording a token twice is no error: the address stays stopped. */
export async function recordStoppedAddressHash(db: Kysely<Database>, addressHash: string, stoppedAt: Date): Promise<void> {
  await db
    .insertInto('stopped_invitation_addresses')
    .values({ address_hash: addressHash, stopped_at: stoppedAt })
    .onConflict((conflict) => conflict.column('address_hash').doNothing())
    .execute()
}

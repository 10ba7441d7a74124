import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * What "stop invitations to this address" stores (invitation-stops.ts): the
 * SHA-256 of each token followed (the key the tokens are made with is a
 * server secret, db/server-secrets.ts). Neither an address nor a usable
 * token is ever stored here.
 */

export async function isAddressHashStopped(db: Kysely<Database>, addressHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('stopped_invitation_addresses')
    .select('address_hash')
    .where('address_hash', '=', addressHash)
    .executeTakeFirst()
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

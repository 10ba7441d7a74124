import { createHash, createHmac, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * "Stop invitations to this address" (issue 30 #3): every invitation e-mail
 * carries a one-click link whose token is an HMAC of the address under a
 * server secret. Nobody can make the token of an address without the
 * secret, and the link names no address. Following it records the token's
 * SHA-256; a later invitation to the address is refused when the hash of
 * its token is recorded. The table therefore holds neither addresses nor
 * usable tokens. It stops invitations only: the address may still sign up
 * and use Pactum, and mail about their own sales still reaches them.
 */

const secretName = 'invitation_stop_key'
export const stopTokenPattern = /^[A-Za-z0-9_-]{43}$/

const keys = new WeakMap<object, Promise<Buffer>>()

/** The server secret, made on first use and kept in the database, so every process makes the same tokens. */
export function stopLinkKey(db: Kysely<Database>): Promise<Buffer> {
  let key = keys.get(db)
  if (!key) {
    key = loadOrCreateKey(db)
    key.catch(() => keys.delete(db))
    keys.set(db, key)
  }
  return key
}

async function loadOrCreateKey(db: Kysely<Database>): Promise<Buffer> {
  await db
    .insertInto('server_secrets')
    .values({ name: secretName, value: JSON.stringify({ key: randomBytes(32).toString('base64url') }) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
  const stored = await db.selectFrom('server_secrets').select('value').where('name', '=', secretName).executeTakeFirstOrThrow()
  const value = (typeof stored.value === 'string' ? JSON.parse(stored.value) : stored.value) as { key: string }
  return Buffer.from(value.key, 'base64url')
}

export function stopToken(key: Buffer, email: string): string {
  return createHmac('sha256', key).update(`stop-invitations:${email.toLowerCase()}`).digest('base64url')
}

export function stopLink(publicUrl: string, token: string, language: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/stop-invitations/${token}?lang=${language}`
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export async function invitationsStopped(db: Kysely<Database>, key: Buffer, email: string): Promise<boolean> {
  const row = await db.selectFrom('stopped_invitation_addresses').select('address_hash').where('address_hash', '=', hashOf(stopToken(key, email))).executeTakeFirst()
  return row !== undefined
}

/**
 * Records the link's token. A token of the right form is recorded whether or
 * not it was ever sent (telling them apart would need the address): one
 * nobody was sent stops nothing, and the route is rate-limited.
 */
export async function stopInvitations(db: Kysely<Database>, token: string, now: Date): Promise<void> {
  await db
    .insertInto('stopped_invitation_addresses')
    .values({ address_hash: hashOf(token), stopped_at: now })
    .onConflict((conflict) => conflict.column('address_hash').doNothing())
    .execute()
}

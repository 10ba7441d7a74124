import { createHash, createHmac, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { loadOrCreateServerSecret } from '../../db/server-secrets.ts'
import { isAddressHashStopped, recordStoppedAddressHash } from './invitation-stops-repository.ts'

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
  const stored = await loadOrCreateServerSecret(db, 'invitation_stop_key', () => ({ key: randomBytes(32).toString('base64url') }))
  return Buffer.from(stored.key, 'base64url')
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
  return isAddressHashStopped(db, hashOf(stopToken(key, email)))
}

/**
 * Records the link's token. A token of the right form is recorded whether or
 * not it was ever sent (telling them apart would need the address): one
 * nobody was sent stops nothing, and the route is rate-limited.
 */
export async function stopInvitations(db: Kysely<Database>, token: string, now: Date): Promise<void> {
  await recordStoppedAddressHash(db, hashOf(token), now)
}

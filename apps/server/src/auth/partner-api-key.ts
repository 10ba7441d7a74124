import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { AppError } from '../errors.ts'

/**
 * API keys of partner clients (issue 12 #2: a marketplace creating guest
 * transactions for both its users). A key reads `<client_id>.<secret>`, the
 * secret being 256 random bits in base64url; it is sent in the
 * `X-Pactum-Api-Key` header (not `Authorization: Bearer`, which carries
 * people's access tokens). Only the secret's SHA-256 is stored, and it is
 * compared in constant time. Issuing a new key replaces the old one.
 */

export const apiKeyHeader = 'x-pactum-api-key'

function hashOf(secret: string): Buffer {
  return createHash('sha256').update(secret).digest()
}

/** Makes a new key for `clientId` and keeps its hash; the key itself is shown once, by the caller. */
export async function issueApiKey(db: Kysely<Database>, clientId: string): Promise<string> {
  const secret = randomBytes(32).toString('base64url')
  const updated = await db.updateTable('clients').set({ api_key_hash: hashOf(secret).toString('hex') }).where('id', '=', clientId).executeTakeFirst()
  if (updated.numUpdatedRows === 0n) throw new Error(`no client ${clientId}`)
  return `${clientId}.${secret}`
}

function invalidKey(): AppError {
  return new AppError('invalid_api_key', `Send a valid partner API key in the ${apiKeyHeader} header`)
}

// Compared against when the client is unknown, so that an unknown client takes as long as a wrong secret.
const nothing = hashOf('')

/** The client a key belongs to; a missing, malformed or wrong key is refused alike. */
export async function clientOfApiKey(db: Kysely<Database>, key: string | undefined): Promise<{ id: string; name: string }> {
  const separator = key?.lastIndexOf('.') ?? -1
  if (!key || separator <= 0 || key.length > 400) throw invalidKey()
  const clientId = key.slice(0, separator)
  const client = await db.selectFrom('clients').select(['id', 'name', 'api_key_hash']).where('id', '=', clientId).executeTakeFirst()
  const stored = client?.api_key_hash ? Buffer.from(client.api_key_hash, 'hex') : nothing
  const matches = timingSafeEqual(hashOf(key.slice(separator + 1)), stored.length === nothing.length ? stored : nothing)
  if (!client?.api_key_hash || !matches) throw invalidKey()
  return { id: client.id, name: client.name }
}

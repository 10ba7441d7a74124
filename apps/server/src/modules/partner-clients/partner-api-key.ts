import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { type ClientChangeActor, recordClientChange } from './client-changes-repository.ts'
import { clearApiKey, findClientWithApiKeyHash, lockApiKeyHash, setApiKeyHash } from './partner-clients-repository.ts'

/**
 * API keys of partner clients (issue 12 #2: a marketplace creating guest
 * transactions for both its users). A key reads `<client_id>.<secret>`, the
 * secret being 256 random bits in base64url; it is sent in the
 * `X-Pactum-Api-Key` header (not `Authorization: Bearer`, which carries
 * people's access tokens). Only the secret's SHA-256 is stored, and it is
 * compared in constant time. Issuing a new key replaces the old one; the
 * admin console and the CLI issue and revoke them.
 */

export const apiKeyHeader = 'x-pactum-api-key'

function hashOf(secret: string): Buffer {
  return createHash('sha256').update(secret).digest()
}

/**
 * Makes a new key for `clientId` (the old one stops working) and keeps its
 * hash; the key itself is shown once, by the caller.
 */
export async function issueApiKey(db: Kysely<Database>, clientId: string, actor: ClientChangeActor, now: Date): Promise<string> {
  const secret = randomBytes(32).toString('base64url')
  return db.transaction().execute(async (trx) => {
    const updated = await setApiKeyHash(trx, clientId, hashOf(secret).toString('hex'), now)
    if (!updated) throw noSuchClient()
    await recordClientChange(trx, { clientId, action: 'api_key_issued', actor, at: now })
    return `${clientId}.${secret}`
  })
}

/** Forgets the client's key, so it no longer opens anything. Revoking no key is no change. */
export async function revokeApiKey(db: Kysely<Database>, clientId: string, actor: ClientChangeActor, now: Date): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const client = await lockApiKeyHash(trx, clientId)
    if (!client) throw noSuchClient()
    if (client.api_key_hash === null) return
    await clearApiKey(trx, clientId)
    await recordClientChange(trx, { clientId, action: 'api_key_revoked', actor, at: now })
  })
}

function noSuchClient(): AppError {
  return new AppError('not_found', 'No such client')
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
  const client = await findClientWithApiKeyHash(db, clientId)
  const stored = client?.api_key_hash ? Buffer.from(client.api_key_hash, 'hex') : nothing
  const matches = timingSafeEqual(hashOf(key.slice(separator + 1)), stored.length === nothing.length ? stored : nothing)
  if (!client?.api_key_hash || !matches) throw invalidKey()
  return { id: client.id, name: client.name }
}

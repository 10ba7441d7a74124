import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { insertServerSecretIfAbsent, serverSecretValue } from './server-secrets-repository.ts'

const secretName = 'sandbox_webhook_secret'

/**
 * SANDBOX_WEBHOOK_SECRET when set; otherwise one generated on first start
 * and kept in server_secrets, so that every process on the database signs
 * and verifies with the same one. Insert-if-absent then read back: two
 * processes starting together agree.
 */
export async function sandboxWebhookSecret(db: Kysely<Database>, configured: string | undefined): Promise<string> {
  if (configured) return configured
  await insertServerSecretIfAbsent(db, secretName, JSON.stringify({ secret: `whsec_${randomBytes(32).toString('base64url')}` }))
  const stored = await serverSecretValue(db, secretName)
  return (stored as { secret: string }).secret
}

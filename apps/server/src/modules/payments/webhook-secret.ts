import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { loadOrCreateServerSecret } from '../../db/server-secrets.ts'

const secretName = 'sandbox_webhook_secret'

/**
 * SANDBOX_WEBHOOK_SECRET when set; otherwise one generated on first start
 * and kept in server_secrets, so that every process on the database signs
 * and verifies with the same one.
 */
export async function sandboxWebhookSecret(db: Kysely<Database>, configured: string | undefined): Promise<string> {
  if (configured) return configured
  const stored = await loadOrCreateServerSecret(db, secretName, () => ({ secret: `whsec_${randomBytes(32).toString('base64url')}` }))
  return stored.secret
}

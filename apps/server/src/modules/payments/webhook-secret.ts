import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

const secretName = 'sandbox_webhook_secret'

/**
 * SANDBOX_WEBHOOK_SECRET when set; otherwise one generated on first start
 * and kept in server_secrets, so that every process on the database signs
 * and verifies with the same one. Insert-if-absent then read back: two
 * processes starting together agree.
 */
export async function sandboxWebhookSecret(db: Kysely<Database>, configured: string | undefined): Promise<string> {
  if (configured) return configured
  await db
    .insertInto('server_secrets')
    .values({ name: secretName, value: JSON.stringify({ secret: `whsec_${randomBytes(32).toString('base64url')}` }) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
  const stored = await db.selectFrom('server_secrets').select('value').where('name', '=', secretName).executeTakeFirstOrThrow()
  return (stored.value as { secret: string }).secret
}

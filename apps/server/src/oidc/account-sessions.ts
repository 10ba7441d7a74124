import { type Kysely, sql } from 'kysely'
import type { Database } from '../db/schema.ts'

/**
 * The embedded provider's stored sessions, grants and tokens of one account
 * (oidc_payloads, payload-adapter.ts). A new password ends them, so that
 * whoever knew the old one is signed out everywhere: their refresh tokens
 * fail, and their browser session asks for the password again. Access tokens
 * are JWTs the API verifies without asking: they run out within their
 * 10 minutes.
 */
const accountModels = ['Session', 'Grant', 'AccessToken', 'RefreshToken', 'AuthorizationCode', 'DeviceCode', 'BackchannelAuthenticationRequest']

interface StoredRow {
  model: string
  id: string
  grant_id: string | null
  payload: Record<string, unknown>
}

/** Every grant in a session's authorizations (`{ [clientId]: { grantId } }`). */
function grantsOfSession(payload: Record<string, unknown>): string[] {
  const authorizations = payload.authorizations
  if (!authorizations || typeof authorizations !== 'object') return []
  return Object.values(authorizations as Record<string, { grantId?: unknown }>)
    .map((authorization) => authorization?.grantId)
    .filter((grantId): grantId is string => typeof grantId === 'string')
}

/**
 * Ends the account's sessions and grants, with every token of those grants.
 * `keepGrantId` keeps one grant and the session that holds it (a password
 * changed from the web app keeps the browser that changed it signed in).
 */
export async function endSessionsOfAccount(
  db: Kysely<Database>,
  accountId: string,
  options: { keepGrantId?: string | undefined } = {},
): Promise<{ sessions: number; grants: number }> {
  const rows = (await db
    .selectFrom('oidc_payloads')
    .select(['model', 'id', 'grant_id', 'payload'])
    .where(sql<string>`payload->>'accountId'`, '=', accountId)
    .where('model', 'in', accountModels)
    .execute()) as StoredRow[]
  const keep = options.keepGrantId
  const ended = rows.filter((row) => {
    if (!keep) return true
    if (row.model === 'Grant') return row.id !== keep
    if (row.model === 'Session') return !grantsOfSession(row.payload).includes(keep)
    return row.grant_id !== keep
  })
  const grantIds = ended.filter((row) => row.model === 'Grant').map((row) => row.id)
  await db.transaction().execute(async (trx) => {
    // Tokens of an ended grant go with it, whatever their own payload says.
    if (grantIds.length > 0) await trx.deleteFrom('oidc_payloads').where('grant_id', 'in', grantIds).execute()
    for (const row of ended) {
      await trx.deleteFrom('oidc_payloads').where('model', '=', row.model).where('id', '=', row.id).execute()
    }
  })
  return { sessions: ended.filter((row) => row.model === 'Session').length, grants: grantIds.length }
}

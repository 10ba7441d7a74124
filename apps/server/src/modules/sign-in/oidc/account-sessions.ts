import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.ts'
import {
  type AccountPayloadRow,
  deletePayload,
  deletePayloadsOfGrants,
  findLivePayloadsOfAccount,
  findPayloadsOfAccount,
} from './oidc-payloads-repository.ts'

/**
 * The embedded provider's stored sessions, grants and tokens of one account
 * (oidc_payloads, oidc-payloads-repository.ts). A new password ends them, so that
 * whoever knew the old one is signed out everywhere: their refresh tokens
 * fail, and their browser session asks for the password again. Access tokens
 * are JWTs the API verifies without asking: they run out within their
 * 10 minutes.
 */
const accountModels = [
  'Session',
  'Grant',
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]

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
  const rows = await findPayloadsOfAccount(db, accountId, accountModels)
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
    if (grantIds.length > 0) await deletePayloadsOfGrants(trx, grantIds)
    for (const row of ended) {
      await deletePayload(trx, row.model, row.id)
    }
  })
  return { sessions: ended.filter((row) => row.model === 'Session').length, grants: grantIds.length }
}

export interface AccountSession {
  /** Not the session's id (that is the browser's session cookie): a hash of it, for lists and keys. */
  id: string
  signedInAt: Date
  /** The last time a token of the session was issued (a sign-in or a refresh). */
  lastUsedAt: Date
  /** The session that holds `currentGrantId`. */
  current: boolean
}

/** The account's live sessions at the embedded provider, most recently used first. */
export async function listSessionsOfAccount(
  db: Kysely<Database>,
  accountId: string,
  currentGrantId: string | null,
): Promise<AccountSession[]> {
  const rows = await findLivePayloadsOfAccount(db, accountId, ['Session', 'RefreshToken'])
  const issuedAt = (row: AccountPayloadRow) => (typeof row.payload.iat === 'number' ? row.payload.iat : 0)
  const sessions = rows
    .filter((row) => row.model === 'Session')
    .map((session) => {
      const grants = grantsOfSession(session.payload)
      const login = typeof session.payload.loginTs === 'number' ? session.payload.loginTs : issuedAt(session)
      const lastToken = Math.max(
        login,
        ...rows.filter((row) => row.model === 'RefreshToken' && row.grant_id && grants.includes(row.grant_id)).map(issuedAt),
      )
      return {
        id: createHash('sha256').update(session.id).digest('base64url').slice(0, 22),
        signedInAt: new Date(login * 1000),
        lastUsedAt: new Date(lastToken * 1000),
        current: currentGrantId !== null && grants.includes(currentGrantId),
      }
    })
  return sessions.sort((a, b) => b.lastUsedAt.getTime() - a.lastUsedAt.getTime())
}

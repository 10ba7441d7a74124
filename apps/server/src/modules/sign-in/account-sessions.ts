import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { endSessionsOfAccount, listSessionsOfAccount } from './oidc/account-sessions.ts'
import { embeddedAccountOf } from './embedded-account.ts'
import type { CurrentUser } from './users.ts'

/**
 * The account page's list of signed-in browsers, and "sign out everywhere
 * else", for people of the embedded sign-in (an external issuer keeps its
 * own sessions). The browser asking is known by its token's grant.
 */
async function embeddedAccountId(deps: { db: Kysely<Database>; embeddedIssuer: string | null }, user: CurrentUser): Promise<string> {
  const account = await embeddedAccountOf(
    deps,
    user,
    () => new AppError('sessions_unavailable', 'Your sign-in provider keeps your sessions: manage them there'),
  )
  return account.id
}

export async function listSessions(
  deps: { db: Kysely<Database>; embeddedIssuer: string | null },
  user: CurrentUser,
  currentGrantId: string | null,
) {
  const sessions = await listSessionsOfAccount(deps.db, await embeddedAccountId(deps, user), currentGrantId)
  return sessions.map((session) => ({
    id: session.id,
    signed_in_at: session.signedInAt.toISOString(),
    last_used_at: session.lastUsedAt.toISOString(),
    current: session.current,
  }))
}

export async function signOutOtherSessions(
  deps: { db: Kysely<Database>; embeddedIssuer: string | null },
  user: CurrentUser,
  currentGrantId: string | null,
): Promise<{ signed_out_sessions: number }> {
  const accountId = await embeddedAccountId(deps, user)
  const ended = await endSessionsOfAccount(deps.db, accountId, { keepGrantId: currentGrantId ?? undefined })
  return { signed_out_sessions: ended.sessions }
}

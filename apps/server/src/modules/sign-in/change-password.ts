import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { SignInConfig } from '../../config.ts'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { endSessionsOfAccount } from './oidc/account-sessions.ts'
import { authenticate, findAccountProfile, setPassword } from './oidc/accounts.ts'
import { beginSignInAttempt, signInSucceeded } from './oidc/sign-in-throttle.ts'
import type { CurrentUser } from './users.ts'

/**
 * Changes the password of an embedded sign-in account from the web app's
 * account page. The current password is checked and throttled as a sign-in
 * from the caller's address is (a stolen access token must not become a way
 * to guess it); on success every other session and grant of the account
 * ends, and the one the request's token belongs to stays.
 */
export async function changePassword(
  deps: { db: Kysely<Database>; clock: Clock; embeddedIssuer: string | null; signIn: SignInConfig },
  user: CurrentUser,
  command: { currentPassword: string; newPassword: string; clientKey: string; keepGrantId: string | null },
): Promise<{ signed_out_sessions: number }> {
  const account = deps.embeddedIssuer === user.issuer ? await findAccountProfile(deps.db, user.subject) : undefined
  if (!account) throw new AppError('password_change_unavailable', 'Your password is kept by your sign-in provider: change it there')
  const now = deps.clock.now()
  const source = { clientKey: command.clientKey }
  const attempt = await beginSignInAttempt(deps.db, account.email, source, now, deps.signIn)
  if (!attempt.allowed) {
    throw new AppError('rate_limited', 'Too many wrong passwords, try again later', {
      headers: { 'retry-after': String(attempt.retryAfterSeconds) },
      details: { reason: 'password_attempts', retry_after_seconds: attempt.retryAfterSeconds },
    })
  }
  if (!(await authenticate(deps.db, account.email, command.currentPassword, deps.signIn.passwordCost))) {
    throw new AppError('incorrect_password', 'The current password is incorrect')
  }
  await signInSucceeded(deps.db, account.email, source, now, deps.signIn)
  await setPassword(deps.db, account.id, command.newPassword, deps.signIn.passwordCost)
  const ended = await endSessionsOfAccount(deps.db, account.id, { keepGrantId: command.keepGrantId ?? undefined })
  return { signed_out_sessions: ended.sessions }
}

import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { accountIdForEmail } from './account-id.ts'

/**
 * Per-account throttle on password guessing: after `maxFailures` failed
 * attempts within `windowMs`, further attempts for that e-mail are refused
 * until the window has moved past them. In the database, because several
 * processes share one database; keyed by the e-mail's account id so that
 * unknown addresses behave the same as known ones.
 */
export const maxFailures = 5
export const windowMs = 15 * 60 * 1000

export type ThrottleDecision = { allowed: true; attemptId: string } | { allowed: false; retryAfterSeconds: number }

/**
 * Records the attempt before the password is checked, then counts: of N
 * concurrent guesses each sees at least those that came before it, so a
 * burst cannot slip past the limit the way check-then-record would allow.
 */
export async function beginSignInAttempt(db: Kysely<Database>, email: string, now: Date): Promise<ThrottleDecision> {
  const accountKey = accountIdForEmail(email)
  const since = new Date(now.getTime() - windowMs)
  const { id } = await db
    .insertInto('sign_in_attempts')
    .values({ account_key: accountKey, attempted_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  const recent = await db
    .selectFrom('sign_in_attempts')
    .select(['id', 'attempted_at'])
    .where('account_key', '=', accountKey)
    .where('attempted_at', '>', since)
    .orderBy('attempted_at', 'desc')
    .execute()
  if (recent.length <= maxFailures) return { allowed: true, attemptId: id }
  // Refused attempts do not count: they must not push the window further out.
  await db.deleteFrom('sign_in_attempts').where('id', '=', id).execute()
  const others = recent.filter((attempt) => attempt.id !== id)
  const oldestThatStillBlocks = others[maxFailures - 1]?.attempted_at ?? now
  const retryAfterMs = oldestThatStillBlocks.getTime() + windowMs - now.getTime()
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
}

/** A correct password clears the account's record; a wrong one leaves its attempt counted. */
export async function signInSucceeded(db: Kysely<Database>, email: string, now: Date): Promise<void> {
  await db.deleteFrom('sign_in_attempts').where('account_key', '=', accountIdForEmail(email)).execute()
  // Housekeeping for every account, cheap with the index on attempted_at.
  await db
    .deleteFrom('sign_in_attempts')
    .where('attempted_at', '<', new Date(now.getTime() - windowMs))
    .execute()
}

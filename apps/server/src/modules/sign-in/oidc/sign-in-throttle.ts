import { isIPv4, isIPv6 } from 'node:net'
import type { Kysely } from 'kysely'
import type { SignInConfig } from '../../../config.ts'
import type { Database } from '../../../db/schema.ts'
import { accountIdForEmail } from './account-id.ts'
import {
  countClientsFailingOn,
  countFailureInBurst,
  deleteAttemptsBefore,
  deleteAttemptsFromClient,
  deleteAttemptsOfAccount,
  deleteAttemptsOfDevice,
  deleteBurstOfAccount,
  deleteBurstsQuietSince,
  deleteSignInAttempt,
  insertSignInAttempt,
  recentAttemptsFromClient,
  recentAttemptsOfDevice,
  recentAttemptsOnAccountFromClient,
} from './throttle-repository.ts'

/**
 * Throttles on password guessing that stop attackers, not owners (issue 30).
 * A failed attempt is counted
 * - per (address, client address) and per client address, for a browser the
 *   account does not know: an attacker is slowed where they are, and failures
 *   from elsewhere never lock the owner out;
 * - per device, for a browser that signed in to the account before (its signed
 *   device cookie, device-cookie.ts): failures from elsewhere do not count
 *   against it, and a stolen cookie still cannot guess faster than this.
 * In the database, because several processes share one database; keyed by the
 * e-mail's account id so that unknown addresses behave the same as known ones.
 */
export type ThrottleSettings = Pick<
  SignInConfig,
  'windowSeconds' | 'maxFailuresPerAddress' | 'maxFailuresPerClient' | 'maxFailuresPerDevice'
>

/** Where an attempt comes from: the client address (clientKeyOf) and, for a known browser, its device id. */
export interface AttemptSource {
  clientKey: string
  deviceKey?: string | undefined
}

export type ThrottleDecision = { allowed: true; attemptId: string } | { allowed: false; retryAfterSeconds: number }

/**
 * The key of a client address: IPv4 as it is, IPv6 by its /64 (one
 * subscriber usually holds a whole /64, so counting single addresses there
 * would count nothing).
 */
export function clientKeyOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped?.[1]) return mapped[1]
  if (isIPv4(ip)) return ip
  if (!isIPv6(ip)) return ip
  const [head = '', tail = ''] = ip.split('::')
  const headParts = head ? head.split(':') : []
  const tailParts = tail ? tail.split(':') : []
  const groups = ip.includes('::')
    ? [...headParts, ...Array<string>(8 - headParts.length - tailParts.length).fill('0'), ...tailParts]
    : headParts
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

/**
 * Records the attempt before the password is checked, then counts: of N
 * concurrent guesses each sees at least those that came before it, so a
 * burst cannot slip past the limit the way check-then-record would allow.
 */
export async function beginSignInAttempt(
  db: Kysely<Database>,
  email: string,
  source: AttemptSource,
  now: Date,
  settings: ThrottleSettings,
): Promise<ThrottleDecision> {
  const accountKey = accountIdForEmail(email)
  const windowMs = settings.windowSeconds * 1000
  const since = new Date(now.getTime() - windowMs)
  const { id } = await insertSignInAttempt(db, {
    accountKey,
    attemptedAt: now,
    clientKey: source.clientKey,
    deviceKey: source.deviceKey ?? null,
  })

  const counted = source.deviceKey
    ? [{ limit: settings.maxFailuresPerDevice, rows: await recentAttemptsOfDevice(db, since, source.deviceKey) }]
    : [
        { limit: settings.maxFailuresPerAddress, rows: await recentAttemptsOnAccountFromClient(db, since, accountKey, source.clientKey) },
        { limit: settings.maxFailuresPerClient, rows: await recentAttemptsFromClient(db, since, source.clientKey) },
      ]
  const exceeded = counted.filter(({ limit, rows }) => rows.length > limit)
  if (exceeded.length === 0) return { allowed: true, attemptId: id }

  // Refused attempts do not count: they must not push the window further out.
  await deleteSignInAttempt(db, id)
  const retryAfterMs = Math.max(
    ...exceeded.map(({ limit, rows }) => {
      const others = rows.filter((attempt) => attempt.id !== id)
      const oldestThatStillBlocks = others[limit - 1]?.attempted_at ?? now
      return oldestThatStillBlocks.getTime() + windowMs - now.getTime()
    }),
  )
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
}

/**
 * A correct password clears what this browser counted against the account
 * (from its address, or under its device key), never what others counted:
 * the owner signing in does not hand an attacker fresh guesses.
 */
export async function signInSucceeded(
  db: Kysely<Database>,
  email: string,
  source: AttemptSource,
  now: Date,
  settings: ThrottleSettings,
): Promise<void> {
  const accountKey = accountIdForEmail(email)
  if (source.deviceKey) await deleteAttemptsOfDevice(db, accountKey, source.deviceKey)
  else await deleteAttemptsFromClient(db, accountKey, source.clientKey)
  // Housekeeping for every account, cheap with the index on attempted_at. A burst
  // quiet for a window has ended: its row would start afresh anyway.
  const windowStart = new Date(now.getTime() - settings.windowSeconds * 1000)
  await deleteAttemptsBefore(db, windowStart)
  await deleteBurstsQuietSince(db, windowStart)
}

/** A new password ends every record of failures against the account (password reset). */
export async function clearSignInFailures(db: Kysely<Database>, accountId: string): Promise<void> {
  await deleteAttemptsOfAccount(db, accountId)
  await deleteBurstOfAccount(db, accountId)
}

export interface BurstAlert {
  /** When the burst began (its first failure). */
  since: Date
  failures: number
  /** How many client addresses the failures came from. */
  addresses: number
}

/**
 * After a failed attempt from a browser the account does not know: counts it
 * in the burst it belongs to (failures no more than a window apart, however
 * long the burst lasts: an attacker throttled to a few guesses per window
 * still makes one) and, the first time the burst reaches
 * `alertAfterFailures`, returns what to tell the owner. Counted and claimed
 * in one upsert, so concurrent failures tell the owner once.
 */
export async function noteFailedSignIn(
  db: Kysely<Database>,
  email: string,
  now: Date,
  settings: Pick<SignInConfig, 'windowSeconds' | 'alertAfterFailures'>,
): Promise<BurstAlert | undefined> {
  const accountKey = accountIdForEmail(email)
  const windowStart = new Date(now.getTime() - settings.windowSeconds * 1000)
  const row = await countFailureInBurst(db, accountKey, now, windowStart, settings.alertAfterFailures)
  // Told at this failure: the one that reached the count (a concurrent one sees alerted_at set already).
  if (!row || !row.told_now || row.failures !== settings.alertAfterFailures) return undefined
  const addresses = await countClientsFailingOn(
    db,
    accountKey,
    new Date(Math.max(new Date(row.started_at).getTime(), windowStart.getTime())),
  )
  return { since: new Date(row.started_at), failures: row.failures, addresses: Math.max(1, addresses) }
}

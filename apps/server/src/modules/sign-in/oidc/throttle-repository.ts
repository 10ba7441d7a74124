import { type Kysely, sql } from 'kysely'
import type { Database } from '../../../db/schema.ts'

/**
 * The password throttle's records (sign-in-throttle.ts): failed and pending
 * attempts (sign_in_attempts) and the bursts of failures their owners were
 * told about (sign_in_bursts), keyed by the e-mail's account id.
 */

export interface AttemptRow {
  id: string
  attempted_at: Date
}

export async function insertSignInAttempt(
  db: Kysely<Database>,
  attempt: { accountKey: string; attemptedAt: Date; clientKey: string; deviceKey: string | null },
): Promise<{ id: string }> {
  return db
    .insertInto('sign_in_attempts')
    .values({
      account_key: attempt.accountKey,
      attempted_at: attempt.attemptedAt,
      client_key: attempt.clientKey,
      device_key: attempt.deviceKey,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** Attempts made after `since`, newest first. */
function attemptsSince(db: Kysely<Database>, since: Date) {
  return db.selectFrom('sign_in_attempts').select(['id', 'attempted_at']).where('attempted_at', '>', since).orderBy('attempted_at', 'desc')
}

/** The recent attempts of a known browser, on any account. */
export async function recentAttemptsOfDevice(db: Kysely<Database>, since: Date, deviceKey: string): Promise<AttemptRow[]> {
  return attemptsSince(db, since).where('device_key', '=', deviceKey).execute()
}

/** The recent attempts on one account from one client address, by browsers the account does not know. */
export async function recentAttemptsOnAccountFromClient(
  db: Kysely<Database>,
  since: Date,
  accountKey: string,
  clientKey: string,
): Promise<AttemptRow[]> {
  return attemptsSince(db, since)
    .where('account_key', '=', accountKey)
    .where('client_key', '=', clientKey)
    .where('device_key', 'is', null)
    .execute()
}

/** The recent attempts from one client address, on any account, by browsers the accounts do not know. */
export async function recentAttemptsFromClient(db: Kysely<Database>, since: Date, clientKey: string): Promise<AttemptRow[]> {
  return attemptsSince(db, since).where('client_key', '=', clientKey).where('device_key', 'is', null).execute()
}

export async function deleteSignInAttempt(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('sign_in_attempts').where('id', '=', id).execute()
}

/** What a known browser counted against the account, under its device key. */
export async function deleteAttemptsOfDevice(db: Kysely<Database>, accountKey: string, deviceKey: string): Promise<void> {
  await db.deleteFrom('sign_in_attempts').where('account_key', '=', accountKey).where('device_key', '=', deviceKey).execute()
}

/** What browsers the account does not know counted against it from one client address. */
export async function deleteAttemptsFromClient(db: Kysely<Database>, accountKey: string, clientKey: string): Promise<void> {
  await db
    .deleteFrom('sign_in_attempts')
    .where('account_key', '=', accountKey)
    .where('client_key', '=', clientKey)
    .where('device_key', 'is', null)
    .execute()
}

export async function deleteAttemptsBefore(db: Kysely<Database>, windowStart: Date): Promise<void> {
  await db.deleteFrom('sign_in_attempts').where('attempted_at', '<', windowStart).execute()
}

export async function deleteBurstsQuietSince(db: Kysely<Database>, windowStart: Date): Promise<void> {
  await db.deleteFrom('sign_in_bursts').where('last_failure_at', '<', windowStart).execute()
}

export async function deleteAttemptsOfAccount(db: Kysely<Database>, accountKey: string): Promise<void> {
  await db.deleteFrom('sign_in_attempts').where('account_key', '=', accountKey).execute()
}

export async function deleteBurstOfAccount(db: Kysely<Database>, accountKey: string): Promise<void> {
  await db.deleteFrom('sign_in_bursts').where('account_key', '=', accountKey).execute()
}

export interface BurstRow {
  started_at: Date
  failures: number
  alerted_at: Date | null
  /** Whether this very failure claimed the alert (set alerted_at to `now`). */
  told_now: boolean
}

/**
 * Counts a failure in the account's burst: a new burst when the last failure
 * is older than `windowStart`, and the alert claimed (alerted_at set to
 * `now`) the first time the burst reaches `alertAfterFailures`. Counted and
 * claimed in one upsert, so concurrent failures claim the alert once.
 */
export async function countFailureInBurst(
  db: Kysely<Database>,
  accountKey: string,
  now: Date,
  windowStart: Date,
  alertAfterFailures: number,
): Promise<BurstRow | undefined> {
  const burst = await sql<BurstRow>`
    insert into sign_in_bursts as b (account_key, started_at, last_failure_at, failures, alerted_at)
    values (${accountKey}, ${now}, ${now}, 1, ${alertAfterFailures <= 1 ? now : null})
    on conflict (account_key) do update set
      started_at = case when b.last_failure_at <= ${windowStart} then ${now} else b.started_at end,
      failures = case when b.last_failure_at <= ${windowStart} then 1 else b.failures + 1 end,
      alerted_at = case
        when b.last_failure_at <= ${windowStart} then null
        when b.alerted_at is null and b.failures + 1 >= ${alertAfterFailures} then ${now}
        else b.alerted_at end,
      last_failure_at = ${now}
    returning started_at, failures, alerted_at, (alerted_at = ${now}) as told_now`.execute(db)
  return burst.rows[0]
}

/** How many client addresses the account's failures from unknown browsers came from since `since`. */
export async function countClientsFailingOn(db: Kysely<Database>, accountKey: string, since: Date): Promise<number> {
  const seen = await db
    .selectFrom('sign_in_attempts')
    .select((eb) => eb.fn.count<number>('client_key').distinct().as('addresses'))
    .where('account_key', '=', accountKey)
    .where('device_key', 'is', null)
    .where('attempted_at', '>=', since)
    .executeTakeFirstOrThrow()
  return Number(seen.addresses)
}

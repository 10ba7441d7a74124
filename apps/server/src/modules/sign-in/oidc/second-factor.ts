import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.ts'
import { findAnyPasskeyOf } from './passkeys-repository.ts'
import {
  countWrongCode,
  deleteSecondFactorStep,
  deleteSecondFactorStepsExpiredBy,
  findOpenSecondFactorStep,
  upsertSecondFactorStep,
} from './second-factor-steps-repository.ts'
import { findConfirmedTotpFactor } from './totp-repository.ts'

/**
 * The step of a sign-in between a right password and the second factor
 * (issue 30): kept per interaction in the database, so that any server
 * process can take the code, for ten minutes. Five wrong codes end it, and
 * the person starts again from the password, which has its own throttle
 * (sign-in-throttle.ts): a guesser gets five tries per right password.
 */

const stepMs = 10 * 60_000
export const maxWrongCodes = 5

/** The second factors an account has: an authenticator app, passkeys. */
export interface SecondFactors {
  totp: boolean
  passkey: boolean
}

export async function secondFactorsOf(db: Kysely<Database>, accountId: string): Promise<SecondFactors> {
  const [totp, passkey] = await Promise.all([findConfirmedTotpFactor(db, accountId), findAnyPasskeyOf(db, accountId)])
  return { totp: totp !== undefined, passkey: passkey !== undefined }
}

export function hasAny(factors: SecondFactors): boolean {
  return factors.totp || factors.passkey
}

/** The password was right: the interaction now waits for this account's second factor. */
export async function openSecondFactorStep(db: Kysely<Database>, interactionUid: string, accountId: string, now: Date): Promise<void> {
  // Housekeeping: steps nobody finished.
  await deleteSecondFactorStepsExpiredBy(db, now)
  await upsertSecondFactorStep(db, interactionUid, accountId, new Date(now.getTime() + stepMs))
}

/** The account this interaction's second step is for, while it lasts. */
export async function pendingSecondFactor(db: Kysely<Database>, interactionUid: string, now: Date): Promise<string | undefined> {
  const row = await findOpenSecondFactorStep(db, interactionUid, now, maxWrongCodes)
  return row?.account_id
}

/** Counts a wrong code; true when that was the last one allowed (the step is gone). */
export async function noteWrongCode(db: Kysely<Database>, interactionUid: string): Promise<boolean> {
  const row = await countWrongCode(db, interactionUid)
  if (row && row.failures < maxWrongCodes) return false
  await closeSecondFactorStep(db, interactionUid)
  return true
}

export async function closeSecondFactorStep(db: Kysely<Database>, interactionUid: string): Promise<void> {
  await deleteSecondFactorStep(db, interactionUid)
}

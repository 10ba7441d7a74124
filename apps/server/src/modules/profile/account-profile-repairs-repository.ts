import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/** The profile last forwarded again by the payout requirements, per connected account (0041). */

export async function lastRepairFingerprint(db: Kysely<Database>, accountId: string): Promise<string | undefined> {
  const last = await db
    .selectFrom('account_profile_repairs')
    .select('profile_fingerprint')
    .where('account_id', '=', accountId)
    .executeTakeFirst()
  return last?.profile_fingerprint
}

/** Keeps that the provider answered the repair of this profile (it took it or refused it). */
export async function recordRepairAnswered(db: Kysely<Database>, accountId: string, fingerprint: string, now: Date): Promise<void> {
  const answered = { profile_fingerprint: fingerprint, answered_at: now }
  await db
    .insertInto('account_profile_repairs')
    .values({ account_id: accountId, ...answered })
    .onConflict((conflict) => conflict.column('account_id').doUpdateSet(answered))
    .execute()
}

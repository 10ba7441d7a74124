import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.ts'

/** Sign-ins waiting for their second factor, per interaction (second-factor.ts). */

export async function deleteSecondFactorStepsExpiredBy(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('second_factor_steps').where('expires_at', '<', now).execute()
}

/** A step opened again for the same interaction starts afresh: this account, no wrong codes. */
export async function upsertSecondFactorStep(
  db: Kysely<Database>,
  interactionUid: string,
  accountId: string,
  expiresAt: Date,
): Promise<void> {
  await db
    .insertInto('second_factor_steps')
    .values({ interaction_uid: interactionUid, account_id: accountId, failures: 0, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('interaction_uid').doUpdateSet({ account_id: accountId, failures: 0, expires_at: expiresAt }))
    .execute()
}

/** The interaction's step while it lasts and has had fewer than `maxWrongCodes` wrong codes. */
export async function findOpenSecondFactorStep(
  db: Kysely<Database>,
  interactionUid: string,
  now: Date,
  maxWrongCodes: number,
): Promise<{ account_id: string } | undefined> {
  return db
    .selectFrom('second_factor_steps')
    .select('account_id')
    .where('interaction_uid', '=', interactionUid)
    .where('expires_at', '>', now)
    .where('failures', '<', maxWrongCodes)
    .executeTakeFirst()
}

/** One more wrong code, counted in the database (any process may take the code); the count after it. */
export async function countWrongCode(db: Kysely<Database>, interactionUid: string): Promise<{ failures: number } | undefined> {
  return db
    .updateTable('second_factor_steps')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('interaction_uid', '=', interactionUid)
    .returning('failures')
    .executeTakeFirst()
}

export async function deleteSecondFactorStep(db: Kysely<Database>, interactionUid: string): Promise<void> {
  await db.deleteFrom('second_factor_steps').where('interaction_uid', '=', interactionUid).execute()
}

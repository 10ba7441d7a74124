import type { OptionalEmailCategory } from '@pactum/contracts/notification-preferences'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/** The optional e-mails people turned off (0052): a row means "do not send"; none means it is sent. */

export async function optedOutCategories(db: Kysely<Database>, userId: string): Promise<OptionalEmailCategory[]> {
  const rows = await db.selectFrom('notification_opt_outs').select('category').where('user_id', '=', userId).execute()
  return rows.map((row) => row.category)
}

/** Every opt-out of these people, for the mailer to leave out their e-mails in one read. */
export async function optOutsOf(
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<Array<{ user_id: string; category: OptionalEmailCategory }>> {
  if (userIds.length === 0) return []
  return db.selectFrom('notification_opt_outs').select(['user_id', 'category']).where('user_id', 'in', userIds).execute()
}

/**
 * Turns these categories off and the others back on, in one statement each.
 * Turning off what is already off keeps the first date.
 */
export async function replaceOptOuts(
  db: Kysely<Database>,
  userId: string,
  off: readonly OptionalEmailCategory[],
  on: readonly OptionalEmailCategory[],
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (on.length > 0) await trx.deleteFrom('notification_opt_outs').where('user_id', '=', userId).where('category', 'in', on).execute()
    if (off.length > 0)
      await trx
        .insertInto('notification_opt_outs')
        .values(off.map((category) => ({ user_id: userId, category, opted_out_at: now })))
        .onConflict((conflict) => conflict.columns(['user_id', 'category']).doNothing())
        .execute()
  })
}

/** One category off, for a link from an e-mail; false when no such user exists (any more). */
export async function addOptOut(db: Kysely<Database>, userId: string, category: OptionalEmailCategory, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()
    if (!user) return false
    await trx
      .insertInto('notification_opt_outs')
      .values({ user_id: userId, category, opted_out_at: now })
      .onConflict((conflict) => conflict.columns(['user_id', 'category']).doNothing())
      .execute()
    return true
  })
}

import { type Kysely, sql } from 'kysely'
import type { Database } from '../../../db/schema.ts'

/** Authenticator apps (totp_factors): one per account, unconfirmed while being set up (totp.ts). */

export async function findTotpFactor(db: Kysely<Database>, accountId: string): Promise<{ account_id: string } | undefined> {
  return db.selectFrom('totp_factors').select('account_id').where('account_id', '=', accountId).executeTakeFirst()
}

export async function findTotpConfirmedAt(db: Kysely<Database>, accountId: string): Promise<{ confirmed_at: Date | null } | undefined> {
  return db.selectFrom('totp_factors').select('confirmed_at').where('account_id', '=', accountId).executeTakeFirst()
}

export async function findConfirmedTotpFactor(db: Kysely<Database>, accountId: string): Promise<{ account_id: string } | undefined> {
  return db
    .selectFrom('totp_factors')
    .select('account_id')
    .where('account_id', '=', accountId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst()
}

/**
 * Keeps a new unconfirmed secret, replacing an unconfirmed one; undefined when
 * the account has a confirmed one (the conflict's update does not apply to it).
 */
export async function storeUnconfirmedTotpSecret(
  db: Kysely<Database>,
  accountId: string,
  secret: string,
  now: Date,
): Promise<{ account_id: string } | undefined> {
  return db
    .insertInto('totp_factors')
    .values({ account_id: accountId, secret, confirmed_at: null, last_used_step: null, created_at: now })
    .onConflict((conflict) =>
      conflict
        .column('account_id')
        .doUpdateSet({ secret, created_at: now, last_used_step: null })
        .where('totp_factors.confirmed_at', 'is', null),
    )
    .returning('account_id')
    .executeTakeFirst()
}

/** The account's secret being set up (`confirmed` false) or in use. */
export async function findTotpSecret(db: Kysely<Database>, accountId: string, confirmed: boolean): Promise<{ secret: string } | undefined> {
  return db
    .selectFrom('totp_factors')
    .select(['secret'])
    .where('account_id', '=', accountId)
    .where('confirmed_at', confirmed ? 'is not' : 'is', null)
    .executeTakeFirst()
}

/**
 * Confirms the unconfirmed secret, with the step of the code that confirmed
 * it used up; false when it was confirmed or replaced meanwhile.
 */
export async function confirmTotpSecret(
  db: Kysely<Database>,
  accountId: string,
  secret: string,
  step: number,
  now: Date,
): Promise<boolean> {
  const confirmed = await db
    .updateTable('totp_factors')
    .set({ confirmed_at: now, last_used_step: step })
    .where('account_id', '=', accountId)
    .where('confirmed_at', 'is', null)
    .where('secret', '=', secret)
    .executeTakeFirst()
  return confirmed.numUpdatedRows > 0n
}

/**
 * Uses up `step` of the confirmed secret; false when a code of that step or a
 * later one was used already, even by a second process at the same moment
 * (the update is conditional on it).
 */
export async function useTotpStep(db: Kysely<Database>, accountId: string, step: number): Promise<boolean> {
  const used = await db
    .updateTable('totp_factors')
    .set({ last_used_step: step })
    .where('account_id', '=', accountId)
    .where('confirmed_at', 'is not', null)
    .where(sql<boolean>`coalesce(last_used_step, -1) < ${step}`)
    .executeTakeFirst()
  return used.numUpdatedRows > 0n
}

export async function deleteTotpFactor(db: Kysely<Database>, accountId: string): Promise<boolean> {
  const removed = await db.deleteFrom('totp_factors').where('account_id', '=', accountId).executeTakeFirst()
  return removed.numDeletedRows > 0n
}

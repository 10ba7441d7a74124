import type { Insertable, Kysely } from 'kysely'
import type { Database, PasswordResetTokensTable } from '../../../db/schema.ts'

/** E-mailed password reset links, by their token's SHA-256 (password-reset.ts). */

/** How many links were issued to the account after `since`. */
export async function countResetTokensSince(db: Kysely<Database>, accountId: string, since: Date): Promise<number> {
  const recent = await db
    .selectFrom('password_reset_tokens')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow()
  return Number(recent.count)
}

export async function insertResetToken(db: Kysely<Database>, values: Insertable<PasswordResetTokensTable>): Promise<void> {
  await db.insertInto('password_reset_tokens').values(values).execute()
}

/** A link with the account's current address beside the one it was sent to. */
export type ResetTokenRow = {
  token_hash: string
  account_id: string
  expires_at: Date
  used_at: Date | null
  email: string
  account_email: string
}

/** The link by its hash; with `lock`, under a row lock until the transaction ends. */
export async function findResetToken(
  db: Kysely<Database>,
  tokenHash: string,
  options: { lock?: boolean } = {},
): Promise<ResetTokenRow | undefined> {
  let query = db
    .selectFrom('password_reset_tokens')
    .innerJoin('accounts', 'accounts.id', 'password_reset_tokens.account_id')
    .select([
      'password_reset_tokens.token_hash',
      'password_reset_tokens.account_id',
      'password_reset_tokens.expires_at',
      'password_reset_tokens.used_at',
      'password_reset_tokens.email',
      'accounts.email as account_email',
    ])
    .where('password_reset_tokens.token_hash', '=', tokenHash)
  if (options.lock) query = query.forUpdate()
  return query.executeTakeFirst()
}

/** Spends every unused link of the account. */
export async function markResetTokensUsed(db: Kysely<Database>, accountId: string, now: Date): Promise<void> {
  await db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .execute()
}

import type { Insertable, Kysely } from 'kysely'
import type { Database, EmailVerificationTokensTable } from '../../../db/schema.ts'

/** E-mailed links that confirm or change an account's address, by their token's SHA-256 (email-verification.ts). */

export async function insertVerificationToken(db: Kysely<Database>, values: Insertable<EmailVerificationTokensTable>): Promise<void> {
  await db.insertInto('email_verification_tokens').values(values).execute()
}

/** A link with the account's current address beside the one it was sent to. */
export type VerificationTokenRow = {
  token_hash: string
  account_id: string
  expires_at: Date
  used_at: Date | null
  email: string
  purpose: 'confirm' | 'change'
  account_email: string
}

/** The link by its hash; with `lock`, under a row lock until the transaction ends. */
export async function findVerificationToken(
  db: Kysely<Database>,
  tokenHash: string,
  options: { lock?: boolean } = {},
): Promise<VerificationTokenRow | undefined> {
  let query = db
    .selectFrom('email_verification_tokens')
    .innerJoin('accounts', 'accounts.id', 'email_verification_tokens.account_id')
    .select([
      'email_verification_tokens.token_hash',
      'email_verification_tokens.account_id',
      'email_verification_tokens.expires_at',
      'email_verification_tokens.used_at',
      'email_verification_tokens.email',
      'email_verification_tokens.purpose',
      'accounts.email as account_email',
    ])
    .where('email_verification_tokens.token_hash', '=', tokenHash)
  if (options.lock) query = query.forUpdate()
  return query.executeTakeFirst()
}

export async function markVerificationTokenUsed(db: Kysely<Database>, tokenHash: string, now: Date): Promise<void> {
  await db.updateTable('email_verification_tokens').set({ used_at: now }).where('token_hash', '=', tokenHash).execute()
}

/** A link issued to the account after `since`, if any. */
export async function findRecentVerificationToken(
  db: Kysely<Database>,
  accountId: string,
  since: Date,
): Promise<{ token_hash: string } | undefined> {
  return db
    .selectFrom('email_verification_tokens')
    .select('token_hash')
    .where('account_id', '=', accountId)
    .where('created_at', '>', since)
    .executeTakeFirst()
}

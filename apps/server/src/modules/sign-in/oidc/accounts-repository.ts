import { type Insertable, type Kysely, sql } from 'kysely'
import type { AccountsTable, Database } from '../../../db/schema.ts'

/**
 * The embedded provider's accounts (accounts.ts): the only table with
 * passwords. An `address` here is normalised already (normaliseEmail).
 */

/**
 * The account that signs in with this address: found by the address, not by
 * the id derived from it, since an account that changed its address keeps
 * the id of its first one.
 */
function byAddress(address: string) {
  return sql<boolean>`lower(email) = ${address}`
}

/**
 * The new account's id, or undefined when the id or the address is taken.
 * Both the id and lower(email) are unique; a concurrent registration of
 * the same address loses here rather than overwriting the other's password.
 */
export async function insertAccount(db: Kysely<Database>, values: Insertable<AccountsTable>): Promise<{ id: string } | undefined> {
  return db
    .insertInto('accounts')
    .values(values)
    .onConflict((conflict) => conflict.doNothing())
    .returning('id')
    .executeTakeFirst()
}

export async function findCredentialsByAddress(
  db: Kysely<Database>,
  address: string,
): Promise<{ id: string; password_hash: string } | undefined> {
  return db.selectFrom('accounts').select(['id', 'password_hash']).where(byAddress(address)).executeTakeFirst()
}

/** Who to write to at this address, in their language. */
export async function findContactByAddress(
  db: Kysely<Database>,
  address: string,
): Promise<{ email: string; first_name: string; locale: string | null } | undefined> {
  return db.selectFrom('accounts').select(['email', 'first_name', 'locale']).where(byAddress(address)).executeTakeFirst()
}

export async function findAccountIdByAddress(db: Kysely<Database>, address: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('accounts').select('id').where(byAddress(address)).executeTakeFirst()
}

/** The account at this address under a row lock, until the transaction ends. */
export async function lockAccountByAddress(
  db: Kysely<Database>,
  address: string,
): Promise<{ id: string; email: string; first_name: string } | undefined> {
  return db.selectFrom('accounts').select(['id', 'email', 'first_name']).where(byAddress(address)).forUpdate().executeTakeFirst()
}

/** The account whose address is `email`, compared case-insensitively (and untrimmed). */
export async function findAccountIdWithEmail(db: Kysely<Database>, email: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('accounts')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst()
}

export interface AccountRow {
  id: string
  email: string
  first_name: string
  last_name: string
  locale: string | null
  email_verified_at: Date | null
}

export async function findAccountRow(db: Kysely<Database>, id: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .select(['id', 'email', 'first_name', 'last_name', 'locale', 'email_verified_at'])
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function updatePasswordHash(db: Kysely<Database>, id: string, passwordHash: string): Promise<void> {
  await db.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', id).execute()
}

/** The account's new address, proved at once (the link to change it reached it). */
export async function changeAccountEmail(db: Kysely<Database>, id: string, email: string, now: Date): Promise<void> {
  await db.updateTable('accounts').set({ email, email_verified_at: now }).where('id', '=', id).execute()
}

/** The account's address proved now, unless it was proved before (the first proof's time stays). */
export async function markEmailVerified(db: Kysely<Database>, id: string, now: Date): Promise<void> {
  await db.updateTable('accounts').set({ email_verified_at: now }).where('id', '=', id).where('email_verified_at', 'is', null).execute()
}

/**
 * When the account proved its address, and when the API's user row of the
 * same id (the subject at `issuer`) was proved, if there is one.
 */
export async function findAddressProofs(
  db: Kysely<Database>,
  issuer: string,
  accountId: string,
): Promise<{ account_verified_at: Date | null; user_proved_at: Date | null } | undefined> {
  return db
    .selectFrom('accounts')
    .leftJoin('users', (join) => join.onRef('users.subject', '=', 'accounts.id').on('users.issuer', '=', issuer))
    .select(['accounts.email_verified_at as account_verified_at', 'users.email_verified_at as user_proved_at'])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst()
}

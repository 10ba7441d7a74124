import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.ts'
import { accountIdForEmail } from './account-id.ts'
import { findAccountRow, findCredentialsByAddress, insertAccount, updatePasswordHash } from './accounts-repository.ts'
import { normaliseEmail } from './email-address.ts'
import { dummyPasswordHash, hashPassword, type PasswordCost, verifyPassword } from './passwords.ts'

/** The embedded provider's accounts: the only place that sees passwords. */
export interface AccountProfile {
  id: string
  email: string
  firstName: string
  lastName: string
  locale: string | null
  emailVerified: boolean
}

export async function createAccount(
  db: Kysely<Database>,
  input: { email: string; password: string; firstName: string; lastName: string; locale: string | null },
  cost: PasswordCost,
): Promise<{ created: true; accountId: string; email: string } | { created: false }> {
  const email = normaliseEmail(input.email)
  const id = accountIdForEmail(email)
  const passwordHash = await hashPassword(input.password, cost)
  const row = await insertAccount(db, {
    id,
    email,
    password_hash: passwordHash,
    first_name: input.firstName,
    last_name: input.lastName,
    locale: input.locale,
  })
  return row ? { created: true, accountId: row.id, email } : { created: false }
}

/**
 * The account id when e-mail and password match, else null — the same work either way:
 * an address with no account is checked against a hash made at `cost`, what new hashes cost.
 * Found by its address, not by the id derived from it: an account that
 * changed its address keeps the id of the first one.
 */
export async function authenticate(db: Kysely<Database>, email: string, password: string, cost: PasswordCost): Promise<string | null> {
  const row = await findCredentialsByAddress(db, normaliseEmail(email))
  if (!row) {
    await verifyPassword(password, await dummyPasswordHash(cost))
    return null
  }
  return (await verifyPassword(password, row.password_hash)) ? row.id : null
}

/** A new password for the account (reset, change); the caller decides which sessions end. */
export async function setPassword(db: Kysely<Database>, id: string, password: string, cost: PasswordCost): Promise<void> {
  const passwordHash = await hashPassword(password, cost)
  await updatePasswordHash(db, id, passwordHash)
}

export async function findAccountProfile(db: Kysely<Database>, id: string): Promise<AccountProfile | undefined> {
  const row = await findAccountRow(db, id)
  return (
    row && {
      id: row.id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      locale: row.locale,
      emailVerified: row.email_verified_at !== null,
    }
  )
}

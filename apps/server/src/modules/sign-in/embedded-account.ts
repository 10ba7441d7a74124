import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { type AccountProfile, authenticate, findAccountProfile } from './oidc/accounts.ts'
import type { CurrentUser } from './users.ts'
import { passwordCost } from './oidc/passwords.ts'

/**
 * The embedded sign-in's account behind a signed-in user (its id is the
 * token's subject), for the Account page's sign-in settings. A user of an
 * external issuer keeps those with the issuer: `unavailable` says so.
 */
export async function embeddedAccountOf(
  deps: { db: Kysely<Database>; embeddedIssuer: string | null },
  user: CurrentUser,
  unavailable: () => AppError,
): Promise<AccountProfile> {
  const account = deps.embeddedIssuer === user.issuer ? await findAccountProfile(deps.db, user.subject) : undefined
  if (!account) throw unavailable()
  return account
}

/** Refuses with 403 `incorrect_password` unless `password` is the account's: adding or removing a way in asks for it. */
export async function requireCurrentPassword(db: Kysely<Database>, account: AccountProfile, password: string): Promise<void> {
  // The signed-in person's own account: its stored hash decides (the dummy's cost is for addresses with no account).
  if ((await authenticate(db, account.email, password, passwordCost)) !== account.id) {
    throw new AppError('incorrect_password', 'The current password is not right')
  }
}

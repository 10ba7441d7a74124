import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.ts'
import { findAddressProofs } from './accounts-repository.ts'
import { findRecentVerificationToken } from './email-verification-tokens-repository.ts'

/**
 * Whether an account must confirm its address before the embedded sign-in
 * lets it in: its address is not confirmed, and the API's user row for its
 * id was already proved by someone (a confirmed account that was closed and
 * registered again, or the operator's command-line token; account ids are
 * derived from the address). Signing in would give the registrant that
 * row's data, which the API refuses anyway (users.ts): the sign-in says why
 * instead, and sends the link.
 */
export async function mustConfirmAddressFirst(db: Kysely<Database>, issuer: string, accountId: string): Promise<boolean> {
  const row = await findAddressProofs(db, issuer, accountId)
  return row !== undefined && row.account_verified_at === null && row.user_proved_at !== null && row.user_proved_at !== undefined
}

/**
 * Whether another confirmation link may be sent for the account now: one
 * every `minutes`, so that signing in again and again (by the person, or by
 * whoever registered their address) does not flood their inbox.
 */
export async function mayResendLink(db: Kysely<Database>, accountId: string, now: Date, minutes = 10): Promise<boolean> {
  const recent = await findRecentVerificationToken(db, accountId, new Date(now.getTime() - minutes * 60_000))
  return recent === undefined
}

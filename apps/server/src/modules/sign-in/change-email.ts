import type { Kysely } from 'kysely'
import type { Mailer } from '../../adapters/mailer/port.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, fieldError } from '../../errors.ts'
import { authenticate, findAccountProfile } from './oidc/accounts.ts'
import { sendEmailChangeLink } from './oidc/email-verification.ts'
import { getNotificationLanguage } from '../profile/profile.ts'
import type { CurrentUser } from './users.ts'
import { passwordCost } from './oidc/passwords.ts'

/**
 * A change of sign-in address from the Account page (issue 30), for people
 * of the embedded sign-in. The current password proves it is the owner and
 * not whoever found a signed-in browser; the new address is proved by the
 * link e-mailed to it, and changes only then (email-verification.ts). The
 * current address hears of the request. Whether the new address belongs to
 * another account is not said here: the answer is the same, and the link,
 * if it is ever opened, says the address is taken.
 */
export async function requestEmailChange(
  deps: { db: Kysely<Database>; mailer: Mailer; clock: Clock; embeddedIssuer: string | null; supportEmail: string },
  user: CurrentUser,
  request: { newEmail: string; currentPassword: string },
): Promise<{ email: string }> {
  const account = deps.embeddedIssuer === user.issuer ? await findAccountProfile(deps.db, user.subject) : undefined
  if (!account) throw new AppError('email_change_unavailable', 'Your sign-in provider keeps your e-mail address: change it there')
  // The signed-in person's own account: its stored hash decides (the dummy's cost is for addresses with no account).
  if ((await authenticate(deps.db, account.email, request.currentPassword, passwordCost)) !== account.id) {
    throw new AppError('incorrect_password', 'The current password is not right')
  }
  if (request.newEmail === account.email.toLowerCase()) {
    throw fieldError('body.new_email', 'this is the address of the account already')
  }
  const locale = await getNotificationLanguage(deps.db, user.id)
  await sendEmailChangeLink(
    { db: deps.db, mailer: deps.mailer, now: deps.clock.now(), issuer: user.issuer, supportEmail: deps.supportEmail },
    account,
    request.newEmail,
    locale,
  )
  return { email: request.newEmail }
}

import type { Kysely } from 'kysely'
import type { Mailer } from '../../adapters/mailer/port.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { findAccountProfile } from './oidc/accounts.ts'
import { sendConfirmationLink } from './oidc/email-verification.ts'
import { getNotificationLanguage } from '../profile/profile.ts'
import type { CurrentUser } from './users.ts'

/**
 * Sends the e-mail confirmation link again (the account page), for people
 * of the embedded sign-in: their account id is the token's subject. An
 * external issuer confirms addresses itself; there is nothing to send then.
 */
export async function resendEmailConfirmation(
  deps: { db: Kysely<Database>; mailer: Mailer; clock: Clock; embeddedIssuer: string | null; supportEmail: string },
  user: CurrentUser,
): Promise<{ email: string }> {
  const account = deps.embeddedIssuer === user.issuer ? await findAccountProfile(deps.db, user.subject) : undefined
  if (!account) throw new AppError('email_confirmation_unavailable', 'Your sign-in provider confirms e-mail addresses itself')
  if (account.emailVerified) throw new AppError('email_already_confirmed', 'Your e-mail address is already confirmed')
  const locale = await getNotificationLanguage(deps.db, user.id)
  await sendConfirmationLink(
    { db: deps.db, mailer: deps.mailer, now: deps.clock.now(), issuer: user.issuer, supportEmail: deps.supportEmail },
    account,
    locale,
  )
  return { email: account.email }
}

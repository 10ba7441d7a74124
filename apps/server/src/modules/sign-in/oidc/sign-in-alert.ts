import { isSupportedLocale, toLanguageTag } from '@pactum/domain/locales'
import type { Kysely } from 'kysely'
import type { Mailer } from '../../../adapters/mailer/port.ts'
import type { Database } from '../../../db/schema.ts'
import { findContactByAddress } from './accounts-repository.ts'
import { normaliseEmail } from './email-address.ts'
import type { BurstAlert } from './sign-in-throttle.ts'
import { renderAccountMail } from './account-mail.ts'
import { translator } from './translations.ts'

/**
 * Tells the owner of an account about a burst of failed sign-ins (once per
 * burst, sign-in-throttle.ts): when it began, how many failures from how many
 * addresses, and how to choose a new password. Nothing for an address
 * without an account.
 */
export async function sendSignInAlert(
  deps: { db: Kysely<Database>; mailer: Mailer; issuer: string; supportEmail: string },
  email: string,
  alert: BurstAlert,
): Promise<boolean> {
  const account = await findContactByAddress(deps.db, normaliseEmail(email))
  if (!account) return false
  const locale = isSupportedLocale(account.locale) ? account.locale : 'en_gb'
  const t = translator(locale)
  const since = new Intl.DateTimeFormat(toLanguageTag(locale), { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
    alert.since,
  )
  const resetLink = `${deps.issuer.replace(/\/+$/, '')}/forgot-password?lang=${locale}`
  await deps.mailer.send({
    to: account.email,
    ...renderAccountMail(
      locale,
      {
        subject: t('signInAlert.mail.subject'),
        greeting: t('confirmEmail.mail.greeting', { name: account.first_name }),
        paragraphs: [
          t('signInAlert.mail.body', { since, failures: alert.failures, addresses: alert.addresses }),
          t('signInAlert.mail.safe'),
          t('signInAlert.mail.reset'),
        ],
        action: { label: t('resetPassword.mail.button'), url: resetLink },
      },
      deps.supportEmail,
    ),
  })
  return true
}

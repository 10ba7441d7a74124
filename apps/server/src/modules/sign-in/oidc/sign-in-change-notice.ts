import { isSupportedLocale } from '@pactum/domain/locales'
import type { FastifyBaseLogger } from 'fastify'
import type { Mailer } from '../../../adapters/mailer/port.ts'
import type { AccountProfile } from './accounts.ts'
import { renderAccountMail } from './account-mail.ts'
import { translator } from './translations.ts'

/** A way into the account added or taken away from the Account page. */
export type SignInChange =
  { kind: 'totp_added' } | { kind: 'totp_removed' } | { kind: 'passkey_added'; name: string } | { kind: 'passkey_removed'; name: string }

const bodyKey = {
  totp_added: 'secondFactor.notice.totpAdded',
  totp_removed: 'secondFactor.notice.totpRemoved',
  passkey_added: 'secondFactor.notice.passkeyAdded',
  passkey_removed: 'secondFactor.notice.passkeyRemoved',
} as const

/**
 * Tells the account's owner, at its address, that a second factor or a
 * passkey came or went (issue 30): someone holding a signed-in browser and
 * the password could otherwise add their own way in, or take the owner's
 * away, unnoticed. In the account's language.
 */
export async function sendSignInChangeNotice(
  mail: { mailer: Mailer; supportEmail: string },
  account: AccountProfile,
  change: SignInChange,
): Promise<void> {
  const locale = isSupportedLocale(account.locale) ? account.locale : 'en_gb'
  const t = translator(locale)
  await mail.mailer.send({
    to: account.email,
    // Nothing to click: the notice only tells.
    ...renderAccountMail(
      locale,
      {
        subject: t('secondFactor.notice.subject'),
        greeting: t('confirmEmail.mail.greeting', { name: account.firstName }),
        paragraphs: [t(bodyKey[change.kind], 'name' in change ? { name: change.name } : undefined), t('secondFactor.notice.notYou')],
      },
      mail.supportEmail,
    ),
  })
}

/**
 * The notice as the Account page's services call it: a notice that cannot
 * be sent is logged, and the change itself stands (the page shows it).
 */
export function signInChangeNotifier(mail: { mailer: Mailer; supportEmail: string }, log: FastifyBaseLogger) {
  return (account: AccountProfile, change: SignInChange): Promise<void> =>
    sendSignInChangeNotice(mail, account, change).catch((error: unknown) => log.error({ err: error }, 'sign-in change notice not sent'))
}

import type { Locale } from '@pactum/domain/locales'
import type { MailContent, RenderedMail } from '../../notifications/mail-content.ts'
import { layoutWords, messages as mailMessages } from '../../notifications/notification-messages.ts'
import { renderMail } from '../../notifications/render-mail.ts'

/**
 * The sign-in's e-mails (confirmation, password reset, alerts, notices) in
 * Pactum's e-mail layout: their words come from the sign-in catalogue, the
 * layout's and the footer's from the e-mail catalogue. Written to the
 * account's owner, or, for a registration, to an address that has none yet.
 */
export function renderAccountMail(
  locale: Locale,
  content: Pick<MailContent, 'subject' | 'greeting' | 'paragraphs' | 'action' | 'afterword'> & {
    /** `registration`: the address has no account yet. */
    reason?: 'account' | 'registration'
  },
  supportEmail: string,
): RenderedMail {
  const { reason = 'account', ...rest } = content
  return renderMail({
    ...rest,
    locale,
    reason: mailMessages[locale][`mail.reason.${reason}`],
    words: layoutWords(locale),
    supportEmail,
  })
}

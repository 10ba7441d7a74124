import type { OptionalEmailCategory } from '@pactum/contracts/notification-preferences'
import type { Locale } from '@pactum/domain/locales'
import { messages } from './notification-messages.ts'

/** The last line of an optional e-mail: how to turn that kind off with one click (opt-out-links.ts). */
export function optOutFooter(locale: Locale, category: OptionalEmailCategory, link: string): string {
  return messages[locale][`optOut.${category}`].replace('{link}', link)
}

/** The plain text with that line at the end, after the usual footer. */
export function withOptOutFooter<Mail extends { text: string }>(
  mail: Mail,
  locale: Locale,
  category: OptionalEmailCategory,
  link: string,
): Mail {
  return { ...mail, text: `${mail.text}\n\n${optOutFooter(locale, category, link)}` }
}

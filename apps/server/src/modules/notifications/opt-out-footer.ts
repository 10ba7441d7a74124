import type { OptionalEmailCategory } from '@pactum/contracts/notification-preferences'
import type { Locale } from '@pactum/domain/locales'
import { messages } from './notification-messages.ts'

/**
 * The last line of an optional e-mail: how to turn that kind off with one
 * click (opt-out-links.ts). `{link}` in it stands for the link; the text and
 * HTML writers (mail-text.ts, mail-html.ts) put it in.
 */
export function optOutSentence(locale: Locale, category: OptionalEmailCategory): string {
  return messages[locale][`optOut.${category}`]
}

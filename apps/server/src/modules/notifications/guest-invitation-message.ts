import { type CurrencyCode, formatMoney } from '@pactum/domain/currencies'
import { type Locale, toLanguageTag } from '@pactum/domain/locales'
import type { Party } from '@pactum/domain/transactions/kernel'
import type { RenderedMail } from './mail-content.ts'
import { layoutWords, type MailOptions, type MessageKey, messages } from './notification-messages.ts'
import { renderMail } from './render-mail.ts'

/**
 * The invitation to a guest transaction: written to an address, not to a
 * user, so it is not one of the state-change templates. As there, names go
 * on labelled lines of their own, never into the sentences.
 */
export interface GuestInvitationFacts {
  /** The role the invitee is offered. */
  role: Party
  kind: 'online' | 'f2f'
  description: string
  price: { amount: number; currency: CurrencyCode }
  /** Who invited: the creator's first name, or null when a partner invited both parties. */
  inviterFirstName: string | null
  /** The partner client's name, when the invitation comes through one. */
  clientName: string | null
  /** The claim link, secret included. */
  link: string
  /** The link that stops every invitation to this address (invitation-stops.ts). */
  stopLink: string
}

export function renderGuestInvitation(
  locale: Locale,
  facts: GuestInvitationFacts,
  options: Pick<MailOptions, 'supportEmail'>,
): RenderedMail {
  const table = messages[locale]
  const t = (key: MessageKey, values: Record<string, string> = {}) =>
    table[key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
  const other: Party = facts.role === 'buyer' ? 'seller' : 'buyer'
  const oneLine = (text: string, length: number) => {
    const characters = Array.from(text.replace(/\s+/g, ' ').trim())
    return characters.length <= length
      ? characters.join('')
      : `${characters
          .slice(0, length - 1)
          .join('')
          .trimEnd()}…`
  }
  const inviter = facts.inviterFirstName?.trim()
  const details = [
    { label: t('details.description'), value: oneLine(facts.description, 300) },
    {
      label: t(facts.kind === 'f2f' ? 'guestInvitation.deposit' : 'details.price'),
      value: formatMoney(facts.price.amount, facts.price.currency, toLanguageTag(locale)),
    },
    ...(inviter ? [{ label: t(`details.${other}`), value: oneLine(inviter, 100) }] : []),
    ...(facts.clientName ? [{ label: t('guestInvitation.client'), value: oneLine(facts.clientName, 100) }] : []),
  ]
  return renderMail({
    locale,
    subject: t(`guestInvitation.${facts.role}.subject`, { description: oneLine(facts.description, 60) }),
    // Written to an address, not to a person Pactum knows: no name to greet.
    greeting: t('greeting'),
    paragraphs: [t(`guestInvitation.${facts.role}.body`)],
    facts: details,
    action: { label: t('guestInvitation.button'), url: facts.link },
    reason: t('guestInvitation.footer'),
    unsubscribe: { text: t('guestInvitation.stop'), url: facts.stopLink },
    words: layoutWords(locale),
    supportEmail: options.supportEmail,
  })
}

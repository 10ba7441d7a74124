import { type CurrencyCode, formatMoney } from '@pactum/domain/currencies'
import { type Locale, toLanguageTag } from '@pactum/domain/locales'
import type { RenderedMail } from './mail-content.ts'
import { layoutWords, type MailOptions, type MessageKey, messages } from './notification-messages.ts'
import { renderMail } from './render-mail.ts'

/**
 * The e-mail to a seller whose payout the bank sent back (decision 110):
 * what happened, that the money is safe in their balance, and the one thing
 * to do (update the bank account), after which the provider pays it out
 * again by itself. Not a state-change template: a payout belongs to no one
 * transaction. The bank's reason is translated from the provider's failure
 * code; the provider's own message is English only.
 */
export interface PayoutFailedFacts {
  amount: { amount: number; currency: CurrencyCode }
  /** The provider's failure code (`account_closed`, `no_account`, …); null when it gave none. */
  failureCode: string | null
  recipientFirstName: string | null
  /** The bank account page. */
  link: string
}

const explainedCodes = [
  'account_closed',
  'no_account',
  'invalid_account_number',
  'account_frozen',
  'invalid_currency',
  'debit_not_authorized',
] as const

export function renderPayoutFailed(locale: Locale, facts: PayoutFailedFacts, options: Pick<MailOptions, 'supportEmail'>): RenderedMail {
  const table = messages[locale]
  const t = (key: MessageKey, values: Record<string, string> = {}) =>
    table[key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
  const amount = formatMoney(facts.amount.amount, facts.amount.currency, toLanguageTag(locale))
  const code = (explainedCodes as readonly string[]).includes(facts.failureCode ?? '')
    ? (facts.failureCode as (typeof explainedCodes)[number])
    : 'other'
  const name = facts.recipientFirstName?.trim()
  return renderMail({
    locale,
    subject: t('payoutFailed.subject', { amount }),
    greeting: name ? t('greetingNamed', { name: Array.from(name).slice(0, 100).join('') }) : t('greeting'),
    paragraphs: [t('payoutFailed.body', { amount }), t('payoutFailed.next')],
    facts: [
      { label: t('payoutFailed.amount'), value: amount },
      { label: t('payoutFailed.reasonLabel'), value: t(`payoutFailed.reason.${code}`) },
    ],
    action: { label: t('payoutFailed.button'), url: facts.link },
    reason: t('payoutFailed.footer'),
    words: layoutWords(locale),
    supportEmail: options.supportEmail,
  })
}

import type { OptionalEmailCategory } from '@pactum/contracts/notification-preferences'
import { type CurrencyCode, formatMoney } from '@pactum/domain/currencies'
import { type Locale, toLanguageTag } from '@pactum/domain/locales'
import type { NotifyTemplate, Party, ReturnReason } from '@pactum/domain/transactions/kernel'
import type { LayoutWords, RenderedMail } from './mail-content.ts'
import { renderMail } from './render-mail.ts'
import enGb from './locales/en_gb.json' with { type: 'json' }
import fiFi from './locales/fi_fi.json' with { type: 'json' }
import hrHr from './locales/hr_hr.json' with { type: 'json' }
import itIt from './locales/it_it.json' with { type: 'json' }
import msMy from './locales/ms_my.json' with { type: 'json' }
import plPl from './locales/pl_pl.json' with { type: 'json' }
import svSe from './locales/sv_se.json' with { type: 'json' }

/**
 * The state-change e-mails' words, one catalogue per language, and how an
 * e-mail is put together from them. Each template has a text for either
 * party (who gets which is the state machine's decision), saying what
 * happened and what to do next.
 *
 * The other party's name goes on a labelled line of its own rather than into
 * the sentences: Polish and Croatian verbs agree with the subject's gender
 * and Finnish nouns take case endings, neither of which a name pasted into a
 * sentence can follow.
 */

/**
 * Where a face-to-face sale needs other words than a shipped one (no
 * shipping, a deposit instead of the price), the catalogue has a variant
 * `f2f_<template>`; the state machines name only the template.
 */
const faceToFaceVariants = {
  joined: 'f2f_joined',
  cancelled: 'f2f_cancelled',
  payment_failed: 'f2f_payment_failed',
} as const satisfies Partial<Record<NotifyTemplate, string>>
export type CatalogueTemplate = NotifyTemplate | (typeof faceToFaceVariants)[keyof typeof faceToFaceVariants]

export function catalogueTemplate(kind: string, template: NotifyTemplate): CatalogueTemplate {
  return kind === 'f2f' && template in faceToFaceVariants ? faceToFaceVariants[template as keyof typeof faceToFaceVariants] : template
}

/** Every template of the catalogue; a Record so that a new template fails to compile here. */
const templateSet: Record<CatalogueTemplate, true> = {
  joined: true,
  rejected: true,
  listing_purchased: true,
  listing_accepted: true,
  listing_rejected: true,
  cancelled: true,
  cancelled_by_partner: true,
  paid: true,
  payment_failed: true,
  tracked: true,
  order_issue: true,
  delivered: true,
  complained: true,
  funds_released: true,
  chargeback_opened: true,
  chargeback_won: true,
  chargeback_lost: true,
  chargeback_recovered: true,
  cancelled_with_payment: true,
  payment_refunded: true,
  deposit_paid: true,
  deposit_accepted: true,
  priced: true,
  remainder_paid: true,
  remainder_skipped: true,
  handover_confirmed: true,
  cancelled_with_deposit: true,
  deposit_refunded: true,
  payment_returned: true,
  settlement_offered: true,
  settlement_declined: true,
  case_escalated: true,
  case_settled: true,
  case_decided: true,
  tracking_deadline_extended: true,
  receipt_confirmation_requested: true,
  message_received: true,
  case_message_received: true,
  handover_awaiting_seller: true,
  f2f_joined: true,
  f2f_cancelled: true,
  f2f_payment_failed: true,
}
export const notifyTemplates = Object.keys(templateSet) as CatalogueTemplate[]
export const parties: readonly Party[] = ['buyer', 'seller']

type TemplateKey = `${CatalogueTemplate}.${Party}.${'subject' | 'body'}`
type LayoutKey =
  | 'greeting'
  | 'greetingNamed'
  | 'details.description'
  | 'details.price'
  | 'details.buyer'
  | 'details.seller'
  | 'details.returned'
  | 'details.returnReason'
  | 'details.decisionReason'
  | 'details.message'
  | `returnReason.${ReturnReason}`
  | 'mail.action.openTransaction'
  | 'footer'
  | 'signature'
  | 'mail.buttonFallback'
  | 'mail.support'
  | `mail.reason.${'account' | 'registration' | 'contact'}`
  | 'mail.receiptAttached'
  | 'mail.verify'
/** The guest invitation's words (guest-invitation-message.ts). */
type GuestInvitationKey =
  `guestInvitation.${Party}.${'subject' | 'body'}` | `guestInvitation.${'deposit' | 'client' | 'button' | 'footer' | 'stop'}`
/** The page behind the invitation's stop link (stop-invitations-routes.ts). */
type StopInvitationsKey = `stopInvitations.${'title' | 'body' | 'button' | 'done.title' | 'done.body' | 'invalid.title' | 'invalid.body'}`

/** The line that turns an optional e-mail's kind off (opt-out-footer.ts) and the page behind it (opt-out-routes.ts). */
type OptOutKey =
  | `optOut.${OptionalEmailCategory}`
  | `emailOptOut.${OptionalEmailCategory}.title`
  | `emailOptOut.${'body' | 'button' | 'done.title' | 'done.body' | 'accountLink' | 'invalid.title' | 'invalid.body'}`

/** The case file's labels (disputes/case-file-pdf.ts): a PDF, not an e-mail, but in the same seven languages. */
type CaseFileKey = Extract<keyof typeof enGb, `caseFile.${string}`>
/** The receipt's own labels (receipts/receipt-pdf.ts); it shares the transaction's facts with the case file. */
type ReceiptKey = Extract<keyof typeof enGb, `receipt.${string}`>
/** A failed payout's e-mail to the seller (payout-failed-message.ts). */
type PayoutFailedKey = Extract<keyof typeof enGb, `payoutFailed.${string}`>

/** English is the reference: it must have every template for both parties; the others are checked against it. */
const english: Record<
  TemplateKey | LayoutKey | GuestInvitationKey | StopInvitationsKey | OptOutKey | CaseFileKey | ReceiptKey | PayoutFailedKey,
  string
> = enGb
export type MessageKey = keyof typeof enGb
type Messages = Record<MessageKey, string>

export const messages: Record<Locale, Messages> = {
  en_gb: english,
  fi_fi: fiFi,
  hr_hr: hrHr,
  it_it: itIt,
  ms_my: msMy,
  pl_pl: plPl,
  sv_se: svSe,
}

export interface NotificationFacts {
  description: string
  price: { amount: number; currency: CurrencyCode }
  /** The other party's first name; null (or empty) when there is nobody or no name. */
  otherPartyFirstName: string | null
  /** The recipient's own first name, for the greeting; null (or empty) when unknown. */
  recipientFirstName?: string | null
  /** Where the transaction is shown in the web app. */
  link: string
  /** Its public verification page (decision 114), on a line of its own after the body. */
  verifyUrl?: string
  /** A payment sent straight back: its amount and why, on lines of their own. */
  returned?: { amount: number; currency: CurrencyCode; reason: ReturnReason }
  /** An admin's decision: the reason given, quoted as written. */
  reason?: string
  /** A message of the conversation, quoted as written. */
  quote?: string
}

/** The layout's own words (mail-html.ts, mail-text.ts), for every e-mail Pactum sends. */
export function layoutWords(locale: Locale): LayoutWords {
  const table = messages[locale]
  return { signature: table.signature, buttonFallback: table['mail.buttonFallback'], support: table['mail.support'] }
}

export interface MailOptions {
  /** The footer's address for questions (SUPPORT_EMAIL). */
  supportEmail: string
  /** Says that the receipt is attached (send-notification.ts attaches it). */
  receiptAttached?: boolean
  /** The sentence and one-click link that turn this kind of e-mail off (optional kinds only, opt-out-footer.ts). */
  unsubscribe?: { text: string; url: string }
}

const subjectDescriptionLength = 60
const bodyDescriptionLength = 300

export function renderNotification(
  locale: Locale,
  template: CatalogueTemplate,
  to: Party,
  facts: NotificationFacts,
  options: MailOptions,
): RenderedMail {
  const table = messages[locale]
  const t = (key: MessageKey, values: Record<string, string> = {}) =>
    // One pass: text that came from a user (the description) is never scanned for placeholders again.
    table[key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
  const other: Party = to === 'buyer' ? 'seller' : 'buyer'
  const otherName = facts.otherPartyFirstName?.trim()
  const ownName = facts.recipientFirstName?.trim()
  const money = (amount: number, currency: CurrencyCode) => formatMoney(amount, currency, toLanguageTag(locale))
  const details = [
    { label: t('details.description'), value: shorten(facts.description, bodyDescriptionLength) },
    { label: t('details.price'), value: money(facts.price.amount, facts.price.currency) },
    ...(otherName ? [{ label: t(`details.${other}`), value: shorten(otherName, 100) }] : []),
    ...(facts.returned
      ? [
          { label: t('details.returned'), value: money(facts.returned.amount, facts.returned.currency) },
          { label: t('details.returnReason'), value: t(`returnReason.${facts.returned.reason}`) },
        ]
      : []),
    ...(facts.reason ? [{ label: t('details.decisionReason'), value: shorten(facts.reason, bodyDescriptionLength * 3) }] : []),
    ...(facts.quote ? [{ label: t('details.message'), value: shorten(facts.quote, bodyDescriptionLength * 3) }] : []),
  ]
  return renderMail({
    locale,
    subject: t(`${template}.${to}.subject`, { description: shorten(facts.description, subjectDescriptionLength) }),
    greeting: ownName ? t('greetingNamed', { name: shorten(ownName, 100) }) : t('greeting'),
    paragraphs: [
      t(`${template}.${to}.body`),
      ...(options.receiptAttached ? [t('mail.receiptAttached')] : []),
      ...(facts.verifyUrl ? [{ text: t('mail.verify'), url: facts.verifyUrl }] : []),
    ],
    facts: details,
    action: { label: t('mail.action.openTransaction'), url: facts.link },
    reason: t('footer'),
    ...(options.unsubscribe ? { unsubscribe: options.unsubscribe } : {}),
    words: layoutWords(locale),
    supportEmail: options.supportEmail,
  })
}

/** One line, at most `length` characters (counted in code points, so no emoji is cut in half). */
function shorten(value: string, length: number): string {
  const oneLine = value.replace(/\s+/g, ' ').trim()
  const characters = Array.from(oneLine)
  return characters.length <= length
    ? oneLine
    : `${characters
        .slice(0, length - 1)
        .join('')
        .trimEnd()}…`
}

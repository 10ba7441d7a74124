import type { Locale } from '@pactum/domain/locales'

/**
 * What one e-mail says, once, before it is written out twice: as plain text
 * (mail-text.ts) and as branded HTML (mail-html.ts), by render-mail.ts. The
 * strings are already translated; user-written ones (a description, a name,
 * a message) are untrusted here and escaped by the HTML writer.
 */
export interface MailContent {
  locale: Locale
  /** The subject, also the HTML document's title. */
  subject: string
  /** "Hello Bea," with the recipient's name when it is known. */
  greeting: string
  /** What happened and what to do. */
  paragraphs: MailParagraph[]
  /** Labelled facts, one a line (item, price, the other party). */
  facts?: Array<{ label: string; value: string }>
  /** The one thing to do: a button in HTML, `label: url` in text. */
  action?: { label: string; url: string }
  /** Paragraphs after the action ("if this was not you…"). */
  afterword?: MailParagraph[]
  /** Why the recipient gets this e-mail. */
  reason: string
  /** The sentence that stops this kind of e-mail; `{link}` in it stands for `url`. */
  unsubscribe?: { text: string; url: string }
  /** The layout's own words in `locale` (notification-messages.ts layoutWords). */
  words: LayoutWords
  /** Where to write with questions, printed in the footer. */
  supportEmail: string
  /**
   * Mail to Pactum's own staff (the contact form): no "The Pactum team"
   * signature and no "questions? write to us" line, which read oddly to
   * the team they name.
   */
  toStaff?: boolean
}

/** A paragraph with a `url` prints the address after its text (a second link besides the action's). */
export type MailParagraph = string | { text: string; url: string }

export interface LayoutWords {
  signature: string
  /** Above the button's address, printed for clients that do not show the button. */
  buttonFallback: string
  /** The footer's support line; `{email}` stands for the address. */
  support: string
}

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

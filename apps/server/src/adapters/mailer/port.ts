/**
 * Outgoing e-mail: the server's one way to write to people (support messages,
 * state-change notifications). The embedded adapter writes files
 * (`file-mailer.ts`, DATA_DIR/mail); the SMTP adapter (`smtp-mailer.ts`,
 * `SMTP_URL`) implements the same port. Chosen once, in adapters/providers.ts.
 * `send` resolves once the message is written or the SMTP server accepted
 * it, and rejects otherwise, so the job that sends it is retried.
 */
export interface MailAttachment {
  filename: string
  contentType: string
  content: Buffer
}

export interface MailMessage {
  to: string
  subject: string
  /** Plain text; line breaks as `\n`. Always there: the alternative for clients that show no HTML. */
  text: string
  /** The same message as HTML (modules/notifications/mail-html.ts): sent as multipart/alternative with `text`. */
  html?: string
  /** Files sent with it (multipart/mixed), e.g. the receipt PDF of the release e-mail. */
  attachments?: MailAttachment[]
  replyTo?: string
  /**
   * The same for every attempt at this one e-mail (a retried job's key). The
   * Message-ID derives from it, so a message sent again after a crash
   * between the mailer and the mark carries the same Message-ID, and mail
   * clients that de-duplicate by it show it once. Without it, a fresh id.
   */
  key?: string
  /**
   * An https (or, in development, http) address that stops this kind of
   * mail with one POST: sent as `List-Unsubscribe` with
   * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058), so that
   * mail clients offer their own "unsubscribe" button.
   */
  listUnsubscribe?: string
}

export interface Mailer {
  /** `id` names the message (the Message-ID's local part); `file` is where the file mailer put it. */
  send(message: MailMessage): Promise<{ id: string; file?: string }>
}

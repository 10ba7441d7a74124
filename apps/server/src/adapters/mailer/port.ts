/**
 * Outgoing e-mail: the server's one way to write to people (support messages,
 * state-change notifications). The embedded adapter writes files
 * (`file-mailer.ts`, DATA_DIR/mail); an SMTP adapter (`SMTP_URL`) would
 * implement the same port. Chosen once, in adapters/providers.ts.
 */
export interface MailMessage {
  to: string
  subject: string
  /** Plain text; line breaks as `\n`. */
  text: string
  replyTo?: string
}

export interface Mailer {
  /** `id` names the message (the Message-ID's local part); `file` is where the file mailer put it. */
  send(message: MailMessage): Promise<{ id: string; file?: string }>
}

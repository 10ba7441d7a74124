import type { MailComposerOptions } from 'nodemailer/lib/mail-composer'
import type { MailAddress } from '../../mail-config.ts'
import type { MailMessage } from './port.ts'

/**
 * One MailMessage as nodemailer's message options, the same for the file
 * mailer (which builds the MIME with nodemailer's MailComposer) and the SMTP
 * mailer (whose transport does): one place decides what reaches the
 * headers. Text and HTML become multipart/alternative, attachments wrap it
 * in multipart/mixed; nodemailer encodes every header and part.
 */
export function mimeMessage(message: MailMessage, envelope: { from: MailAddress; messageId: string; date: Date }): MailComposerOptions {
  const { from } = envelope
  return {
    from: from.name ? { name: oneLine(from.name), address: singleAddress(from.address).address } : singleAddress(from.address).address,
    to: singleAddress(message.to),
    ...(message.replyTo ? { replyTo: singleAddress(message.replyTo) } : {}),
    subject: oneLine(message.subject),
    text: message.text,
    ...(message.html !== undefined ? { html: message.html } : {}),
    ...(message.attachments && message.attachments.length > 0
      ? {
          attachments: message.attachments.map((attachment) => ({
            filename: oneLine(attachment.filename),
            contentType: oneLine(attachment.contentType),
            content: attachment.content,
          })),
        }
      : {}),
    date: envelope.date,
    messageId: envelope.messageId,
    ...(message.listUnsubscribe
      ? {
          headers: {
            'List-Unsubscribe': `<${unsubscribeUrl(message.listUnsubscribe)}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        }
      : {}),
    // Content is always given, never a path or a URL for nodemailer to read.
    disableFileAccess: true,
    disableUrlAccess: true,
  }
}

/** No line breaks or other control characters in a header (no header injection). */
function oneLine(value: string): string {
  return value.replace(/[\r\n\p{Cc}]+/gu, ' ').trim()
}

/** One address: no second recipient smuggled in with a comma. */
function singleAddress(value: string): { name: string; address: string } {
  return { name: '', address: value.replace(/[\r\n<>,;\p{Cc}\s]/gu, '') }
}

/** A URL inside <…>: nothing that could end the bracket or the header. */
function unsubscribeUrl(value: string): string {
  return value.replace(/[\s<>\p{Cc}]/gu, '')
}

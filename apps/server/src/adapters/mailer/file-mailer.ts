import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { MailAddress } from '../../mail-config.ts'
import { mailIdFor } from './mail-id.ts'
import type { Mailer } from './port.ts'

/** Header values: no line breaks (no header injection); non-ASCII as an RFC 2047 encoded word. */
function headerValue(value: string): string {
  const oneLine = value.replace(/[\r\n\p{Cc}]+/gu, ' ').trim()
  return /^[\x20-\x7e]*$/.test(oneLine) ? oneLine : `=?UTF-8?B?${Buffer.from(oneLine, 'utf8').toString('base64')}?=`
}

/** A quoted phrase when ASCII (commas and dots allowed), an encoded word otherwise. */
function displayName(name: string): string {
  const plain = name.replace(/["\\\r\n\p{Cc}]/gu, '').trim()
  return /^[\x20-\x7e]*$/.test(plain) ? `"${plain}"` : headerValue(plain)
}

function address(value: string): string {
  return value.replace(/[\r\n<>,;\p{Cc}]/gu, '').trim()
}

/** A URL inside <…>: nothing that could end the bracket or the header. */
export function unsubscribeUrl(value: string): string {
  return value.replace(/[\s<>\p{Cc}]/gu, '')
}

/**
 * A mailer that writes each message as an RFC 5322 file,
 * `<dir>/<timestamp>-<id>.eml` (development, sandbox and tests; read back by
 * the dev mailbox, dev-mailbox.ts). A message sent again with the same key
 * gets a second file with the same id and a later timestamp.
 */
export function createFileMailer(options: { dir: string; from: MailAddress; now?: () => Date }): Mailer {
  const now = options.now ?? (() => new Date())
  const from = options.from.name ? `${displayName(options.from.name)} <${address(options.from.address)}>` : address(options.from.address)
  return {
    async send(message) {
      const id = mailIdFor(message.key)
      const date = now()
      const headers = [
        `From: ${from}`,
        `To: ${address(message.to)}`,
        ...(message.replyTo ? [`Reply-To: ${address(message.replyTo)}`] : []),
        `Subject: ${headerValue(message.subject)}`,
        `Date: ${date.toUTCString()}`,
        `Message-ID: <${id}@pactum>`,
        ...(message.listUnsubscribe
          ? [`List-Unsubscribe: <${unsubscribeUrl(message.listUnsubscribe)}>`, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click']
          : []),
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: base64',
      ]
      const body = (
        Buffer.from(message.text.replace(/\r?\n/g, '\r\n'), 'utf8')
          .toString('base64')
          .match(/.{1,76}/g) ?? []
      ).join('\r\n')
      await mkdir(options.dir, { recursive: true })
      const file = path.join(options.dir, `${date.getTime()}-${id}.eml`)
      await writeFile(file, `${headers.join('\r\n')}\r\n\r\n${body}\r\n`, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
        // The same e-mail (same key) written again in the same millisecond: it is there already.
        if (error.code !== 'EEXIST' || message.key === undefined) throw error
      })
      return { id, file }
    },
  }
}

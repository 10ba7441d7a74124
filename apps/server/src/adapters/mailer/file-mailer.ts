import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import MailComposer from 'nodemailer/lib/mail-composer'
import type { MailAddress } from '../../mail-config.ts'
import { mailIdFor } from './mail-id.ts'
import { mimeMessage } from './mime-message.ts'
import type { Mailer } from './port.ts'

/**
 * A mailer that writes each message as an RFC 5322 file,
 * `<dir>/<timestamp>-<id>.eml` (development, sandbox and tests; read back by
 * the dev mailbox, dev-mailbox.ts), built by nodemailer's MailComposer from
 * the same options the SMTP mailer sends (mime-message.ts): what a file
 * shows is what SMTP would have carried. A message sent again with the same
 * key gets a second file with the same id and a later timestamp.
 */
export function createFileMailer(options: { dir: string; from: MailAddress; now?: () => Date }): Mailer {
  const now = options.now ?? (() => new Date())
  return {
    async send(message) {
      const id = mailIdFor(message.key)
      const date = now()
      const raw = await new MailComposer(mimeMessage(message, { from: options.from, messageId: `<${id}@pactum>`, date })).compile().build()
      await mkdir(options.dir, { recursive: true })
      const file = path.join(options.dir, `${date.getTime()}-${id}.eml`)
      await writeFile(file, raw, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
        // The same e-mail (same key) written again in the same millisecond: it is there already.
        if (error.code !== 'EEXIST' || message.key === undefined) throw error
      })
      return { id, file }
    },
  }
}

import { randomUUID } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
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
 * key gets a second file with the same id and a later timestamp. Each file is
 * written under a temporary name and renamed, so a reader (the dev mailbox,
 * the browser tests' mailbox) never meets half a message under `.eml`.
 */
export function createFileMailer(options: { dir: string; from: MailAddress; now?: () => Date }): Mailer {
  const now = options.now ?? (() => new Date())
  return {
    async send(message) {
      const id = mailIdFor(message.key)
      const date = now()
      const raw = await new MailComposer(mimeMessage(message, { from: options.from, messageId: `<${id}@pactum>`, date })).compile().build()
      const file = path.join(options.dir, `${date.getTime()}-${id}.eml`)
      const partial = path.join(options.dir, `.${date.getTime()}-${id}.${randomUUID()}.partial`)
      try {
        await writeFile(partial, raw, { flag: 'wx' })
      } catch (error) {
        // The folder is made when it is missing (the first e-mail, or after someone emptied DATA_DIR), not
        // before every e-mail: a mkdir per message was a few per cent of a busy process's time (issue 36).
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        await mkdir(options.dir, { recursive: true })
        await writeFile(partial, raw, { flag: 'wx' })
      }
      // The same e-mail (same key) written again in the same millisecond replaces the same message.
      await rename(partial, file)
      return { id, file }
    },
  }
}

import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { type DevMail, parseDevMail } from '../adapters/mailer/dev-mailbox.ts'

export type WrittenMail = DevMail

/**
 * Every .eml the file mailer wrote to DATA_DIR/mail, oldest first (the names
 * start with the time), parsed as the dev mailbox reads them (text, HTML,
 * attachments with their content).
 */
export async function writtenMails(dataDir: string): Promise<WrittenMail[]> {
  const dir = path.join(dataDir, 'mail')
  const files = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return []
    throw error
  })
  return Promise.all(
    files
      .filter((file) => file.endsWith('.eml'))
      .sort()
      .map(async (file) => parseDevMail(file.slice(0, -'.eml'.length), await readFile(path.join(dir, file)))),
  )
}

import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'

export interface WrittenMail {
  to: string
  subject: string
  text: string
}

/**
 * Every .eml the file mailer wrote to DATA_DIR/mail, oldest first (the names
 * start with the time), decoded: RFC 2047 subject, base64 body.
 */
export async function writtenMails(dataDir: string): Promise<WrittenMail[]> {
  const dir = path.join(dataDir, 'mail')
  const files = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return []
    throw error
  })
  return Promise.all(
    files.sort().map(async (file) => {
      const [head = '', body = ''] = (await readFile(path.join(dir, file), 'utf8')).split('\r\n\r\n')
      const header = (name: string) =>
        head
          .split('\r\n')
          .find((line) => line.startsWith(`${name}: `))
          ?.slice(name.length + 2) ?? ''
      const subject = header('Subject').replace(/^=\?UTF-8\?B\?(.*)\?=$/, (_, encoded: string) =>
        Buffer.from(encoded, 'base64').toString('utf8'),
      )
      // The file mailer writes CRLF line ends, as RFC 5322 asks.
      const text = Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8').replace(/\r\n/g, '\n')
      return { to: header('To'), subject, text }
    }),
  )
}

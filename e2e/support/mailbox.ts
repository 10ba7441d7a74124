import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { expect } from '@playwright/test'

export interface Mail {
  to: string
  subject: string
  text: string
}

/** The e-mails the server's file mailer wrote (DATA_DIR/mail, one .eml each), decoded. */
export async function mailsTo(address: string): Promise<Mail[]> {
  const dataDir = process.env.E2E_DATA_DIR
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run through playwright.config.ts')
  const dir = path.join(dataDir, 'mail')
  const files = (await readdir(dir).catch(() => [] as string[])).sort()
  const mails = await Promise.all(
    files.map(async (file) => {
      const [head = '', body = ''] = (await readFile(path.join(dir, file), 'utf8')).split('\r\n\r\n')
      const header = (name: string) =>
        head
          .split('\r\n')
          .find((line) => line.startsWith(`${name}: `))
          ?.slice(name.length + 2) ?? ''
      const subject = header('Subject').replace(/^=\?UTF-8\?B\?(.*)\?=$/, (_, encoded: string) =>
        Buffer.from(encoded, 'base64').toString('utf8'),
      )
      const text = Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8').replace(/\r\n/g, '\n')
      return { to: header('To'), subject, text }
    }),
  )
  return mails.filter((mail) => mail.to === address.toLowerCase())
}

/** Waits for the `count`-th e-mail to `address` and returns it. */
export async function nthMailTo(address: string, count: number): Promise<Mail> {
  let mails: Mail[] = []
  await expect(async () => {
    mails = await mailsTo(address)
    expect(mails.length).toBeGreaterThanOrEqual(count)
  }).toPass({ timeout: 10_000 })
  return mails[count - 1]!
}

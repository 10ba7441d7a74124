import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { expect } from '@playwright/test'
import { type AddressObject, simpleParser } from 'mailparser'

export interface Mail {
  to: string
  subject: string
  text: string
  /** The HTML alternative; every e-mail Pactum sends has one. */
  html: string | null
}

function firstAddress(value: AddressObject | AddressObject[] | undefined): string {
  const [object] = value === undefined ? [] : Array.isArray(value) ? value : [value]
  return object?.value[0]?.address ?? ''
}

/**
 * Every message read so far, by file name. The server writes each message
 * under a temporary name and renames it (file-mailer.ts), so an `.eml` file
 * is whole and never changes: it is parsed once per worker. Parsing the
 * whole folder on every look made each look slower as the run's mail grew
 * (thousands of messages, receipts attached), and the looks are many.
 */
const parsedByFile = new Map<string, Mail>()

async function parsedMail(dir: string, file: string): Promise<Mail> {
  const known = parsedByFile.get(file)
  if (known) return known
  const parsed = await simpleParser(await readFile(path.join(dir, file)), { skipTextToHtml: true, skipHtmlToText: true })
  const mail = {
    to: firstAddress(parsed.to),
    subject: parsed.subject ?? '',
    text: (parsed.text ?? '').replace(/\r\n/g, '\n'),
    html: typeof parsed.html === 'string' ? parsed.html : null,
  }
  parsedByFile.set(file, mail)
  return mail
}

/** The e-mails the server's file mailer wrote (DATA_DIR/mail, one .eml each), parsed as a mail client would. */
export async function mailsTo(address: string): Promise<Mail[]> {
  const dataDir = process.env.E2E_DATA_DIR
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run through playwright.config.ts')
  const dir = path.join(dataDir, 'mail')
  const files = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.eml')).sort()
  const mails = await Promise.all(files.map((file) => parsedMail(dir, file)))
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

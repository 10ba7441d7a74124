import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { type AddressObject, simpleParser } from 'mailparser'

/**
 * What the file mailer wrote, read back for the admins' dev mailbox (sandbox
 * mode only: with SMTP there are no files). A message's id is its file name
 * without `.eml`, `<epoch ms>-<uuid>`: unique even when a retry wrote the
 * same e-mail twice, and ordered by time. Ids are checked against that form
 * before any path is built, so no id can name a file outside the folder.
 */

export const devMailIdPattern = /^[0-9]{1,15}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export interface DevMailSummary {
  id: string
  to: string
  subject: string
  date: Date
}

export interface DevMail extends DevMailSummary {
  from: string
  replyTo: string | null
  messageId: string
  text: string
  /** The HTML alternative, when the message has one. */
  html: string | null
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>
}

/** The addresses of a parsed header, as written ("Pactum <no-reply@…>" → the address only for To, the whole for From). */
function addresses(value: AddressObject | AddressObject[] | undefined, form: 'address' | 'text'): string {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value]
  return form === 'text'
    ? objects.map((object) => object.text).join(', ')
    : objects
        .flatMap((object) => object.value)
        .map((one) => one.address ?? '')
        .join(', ')
}

/**
 * Parses what the file mailer wrote (MIME built by nodemailer, file-mailer.ts)
 * with mailparser, nodemailer's own reader: headers decoded, the text and
 * the HTML alternative, the attachments.
 */
export async function parseDevMail(id: string, content: Buffer | string): Promise<DevMail> {
  const mail = await simpleParser(content, { skipTextToHtml: true, skipImageLinks: true, skipHtmlToText: true })
  const fallbackDate = new Date(Number(id.split('-')[0]))
  return {
    id,
    to: addresses(mail.to, 'address'),
    from: addresses(mail.from, 'text'),
    replyTo: mail.replyTo ? addresses(mail.replyTo, 'address') : null,
    subject: mail.subject ?? '',
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : fallbackDate,
    messageId: mail.messageId ?? '',
    text: (mail.text ?? '').replace(/\r\n/g, '\n'),
    html: typeof mail.html === 'string' ? mail.html : null,
    attachments: mail.attachments.map((attachment) => ({
      filename: attachment.filename ?? '',
      contentType: attachment.contentType,
      content: attachment.content,
    })),
  }
}

export class DevMailbox {
  readonly #dir: string

  constructor(dir: string) {
    this.#dir = dir
  }

  /** Where the messages are, to tell a newcomer (modules/sign-in/oidc/sent-mail-routes.ts). */
  get folder(): string {
    return this.#dir
  }

  async #ids(): Promise<string[]> {
    const files = await readdir(this.#dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[]
      throw error
    })
    return files
      .filter((file) => file.endsWith('.eml'))
      .map((file) => file.slice(0, -'.eml'.length))
      .filter((id) => devMailIdPattern.test(id))
  }

  /** Newest first; `afterId` is the last id of the previous page (that message need not exist any more). */
  async list(options: { limit: number; afterId?: string }): Promise<DevMailSummary[]> {
    const newestFirst = (await this.#ids()).sort(compareNewestFirst)
    const start = options.afterId ? newestFirst.filter((id) => compareNewestFirst(id, options.afterId!) > 0) : newestFirst
    const page = start.slice(0, options.limit)
    const mails = await Promise.all(page.map((id) => this.get(id)))
    return mails.filter((mail): mail is DevMail => mail !== null).map(({ id, to, subject, date }) => ({ id, to, subject, date }))
  }

  /** One message, or null when there is none with that id (or the id is not of the mailbox's form). */
  async get(id: string): Promise<DevMail | null> {
    if (!devMailIdPattern.test(id)) return null
    const content = await readFile(path.join(this.#dir, `${id}.eml`)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null
      throw error
    })
    return content === null ? null : parseDevMail(id, content)
  }
}

/** Later time first; the same millisecond by id, so the order (and the paging) is total. */
function compareNewestFirst(a: string, b: string): number {
  const [timeA, timeB] = [Number(a.split('-')[0]), Number(b.split('-')[0])]
  if (timeA !== timeB) return timeB - timeA
  return a < b ? 1 : a > b ? -1 : 0
}

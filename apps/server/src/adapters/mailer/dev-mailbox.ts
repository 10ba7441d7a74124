import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'

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
}

/** An RFC 2047 encoded word as the file mailer writes it (UTF-8, base64), or the plain value. */
function decodeHeader(value: string): string {
  return value.replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/gi, (_, encoded: string) => Buffer.from(encoded, 'base64').toString('utf8'))
}

/** Parses the file mailer's own format (file-mailer.ts): CRLF headers, a blank line, a base64 UTF-8 body. */
export function parseDevMail(id: string, content: string): DevMail {
  const split = content.indexOf('\r\n\r\n')
  const head = split === -1 ? content : content.slice(0, split)
  const body = split === -1 ? '' : content.slice(split + 4)
  const headers = new Map<string, string>()
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim())
  }
  const date = new Date(headers.get('date') ?? Number(id.split('-')[0]))
  return {
    id,
    to: headers.get('to') ?? '',
    from: headers.get('from') ?? '',
    replyTo: headers.get('reply-to') ?? null,
    subject: decodeHeader(headers.get('subject') ?? ''),
    date: Number.isNaN(date.getTime()) ? new Date(Number(id.split('-')[0])) : date,
    messageId: headers.get('message-id') ?? '',
    text: Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8').replace(/\r\n/g, '\n'),
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
    const content = await readFile(path.join(this.#dir, `${id}.eml`), 'utf8').catch((error: NodeJS.ErrnoException) => {
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

import { createPrivateKey } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { z } from 'zod'

/**
 * The outgoing e-mail settings (part of config.ts): the file mailer unless
 * SMTP_URL is set. Every problem names its variable and never repeats its
 * value: SMTP_URL carries the password and the DKIM key is a secret.
 */

export interface MailAddress {
  name?: string
  address: string
}

export interface SmtpSettings {
  host: string
  port: number
  /** smtps://: TLS from the first byte (implicit TLS, port 465 by default). */
  secure: boolean
  /** smtp://: refuse to send unless the server upgrades with STARTTLS (unless SMTP_REQUIRE_TLS=false). */
  requireTls: boolean
  auth: { user: string; pass: string } | undefined
  dkim: { domainName: string; keySelector: string; privateKey: string } | undefined
}

export type MailConfig = { transport: 'file'; from: MailAddress } | { transport: 'smtp'; from: MailAddress; smtp: SmtpSettings }

const emailSchema = z.email()

/** `support@x.example` or `Pactum <support@x.example>` (the display name may be quoted). */
export function parseMailAddress(value: string): MailAddress | undefined {
  const trimmed = value.trim()
  if (emailSchema.safeParse(trimmed).success) return { address: trimmed }
  const named = /^"?([^"<>\r\n]*?)"?\s*<([^<>\s]+)>$/.exec(trimmed)
  if (!named || !emailSchema.safeParse(named[2]).success) return undefined
  const name = named[1]!.trim()
  return name ? { name, address: named[2]! } : { address: named[2]! }
}

function parseSmtpUrl(value: string, requireTls: boolean): { settings?: Omit<SmtpSettings, 'dkim'>; problem?: string } {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return { problem: 'SMTP_URL: not a URL (expected smtp://user:password@host:port or smtps://…)' }
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    return { problem: 'SMTP_URL: the scheme must be smtp:// (STARTTLS) or smtps:// (implicit TLS)' }
  if (!url.hostname) return { problem: 'SMTP_URL: no host' }
  if (url.pathname.replace(/\/+$/, '') !== '' || url.search || url.hash) {
    return { problem: 'SMTP_URL: only user, password, host and port are read; set the other options with their own SMTP_ variables' }
  }
  if (Boolean(url.username) !== Boolean(url.password)) return { problem: 'SMTP_URL: give both the user and the password, or neither' }
  let auth: SmtpSettings['auth']
  try {
    auth = url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined
  } catch {
    return { problem: 'SMTP_URL: the user or password is not correctly percent-encoded' }
  }
  const secure = url.protocol === 'smtps:'
  return {
    settings: {
      // URL keeps the brackets of an IPv6 literal; the socket wants the bare address.
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      requireTls: !secure && requireTls,
      auth,
    },
  }
}

function dkimKey(env: Record<string, string | undefined>): { key?: string; problem?: string } {
  if (env.SMTP_DKIM_PRIVATE_KEY && env.SMTP_DKIM_PRIVATE_KEY_FILE) {
    return { problem: 'SMTP_DKIM_PRIVATE_KEY_FILE: set either SMTP_DKIM_PRIVATE_KEY or SMTP_DKIM_PRIVATE_KEY_FILE, not both' }
  }
  const name = env.SMTP_DKIM_PRIVATE_KEY_FILE ? 'SMTP_DKIM_PRIVATE_KEY_FILE' : 'SMTP_DKIM_PRIVATE_KEY'
  let key: string
  if (env.SMTP_DKIM_PRIVATE_KEY_FILE) {
    try {
      key = readFileSync(env.SMTP_DKIM_PRIVATE_KEY_FILE, 'utf8')
    } catch (error) {
      return { problem: `SMTP_DKIM_PRIVATE_KEY_FILE: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})` }
    }
  } else {
    // One-line environments (container secrets, .env files) often carry the PEM with literal \n.
    key = (env.SMTP_DKIM_PRIVATE_KEY ?? '').replace(/\\n/g, '\n')
  }
  try {
    createPrivateKey(key)
  } catch {
    return { problem: `${name}: not a PEM private key` }
  }
  return { key }
}

const dkimNames = ['SMTP_DKIM_DOMAIN', 'SMTP_DKIM_SELECTOR', 'SMTP_DKIM_PRIVATE_KEY'] as const

export function loadMailConfig(env: Record<string, string | undefined>, supportEmail: string): { mail?: MailConfig; problems: string[] } {
  const problems: string[] = []
  const from = env.SMTP_FROM ? parseMailAddress(env.SMTP_FROM) : { address: supportEmail }
  if (!from) problems.push('SMTP_FROM: not an e-mail address (expected name@example.com or "Name <name@example.com>")')
  const requireTlsSetting = env.SMTP_REQUIRE_TLS || 'true'
  if (requireTlsSetting !== 'true' && requireTlsSetting !== 'false') problems.push('SMTP_REQUIRE_TLS: expected true or false')

  const dkimGiven = dkimNames.filter((name) => (name === 'SMTP_DKIM_PRIVATE_KEY' ? env[name] || env.SMTP_DKIM_PRIVATE_KEY_FILE : env[name]))
  if (!env.SMTP_URL) {
    const smtpOnly = [...dkimGiven, ...(env.SMTP_REQUIRE_TLS ? ['SMTP_REQUIRE_TLS'] : [])]
    problems.push(...smtpOnly.map((name) => `${name}: only used with SMTP_URL, which is not set`))
    return problems.length > 0 || !from ? { problems } : { mail: { transport: 'file', from }, problems }
  }

  const url = parseSmtpUrl(env.SMTP_URL, requireTlsSetting !== 'false')
  if (url.problem) problems.push(url.problem)
  let dkim: SmtpSettings['dkim']
  if (dkimGiven.length > 0) {
    const missing = dkimNames.filter((name) => !dkimGiven.includes(name))
    problems.push(
      ...missing.map((name) => `${name}: required when any SMTP_DKIM_ variable is set (the key may come from SMTP_DKIM_PRIVATE_KEY_FILE)`),
    )
    if (env.SMTP_DKIM_DOMAIN && !/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/i.test(env.SMTP_DKIM_DOMAIN))
      problems.push('SMTP_DKIM_DOMAIN: not a domain name')
    if (env.SMTP_DKIM_SELECTOR && !/^[a-z0-9]([a-z0-9._-]{0,62})$/i.test(env.SMTP_DKIM_SELECTOR))
      problems.push('SMTP_DKIM_SELECTOR: not a DNS label')
    const key = dkimGiven.includes('SMTP_DKIM_PRIVATE_KEY') ? dkimKey(env) : {}
    if (key.problem) problems.push(key.problem)
    if (missing.length === 0 && key.key)
      dkim = { domainName: env.SMTP_DKIM_DOMAIN!.toLowerCase(), keySelector: env.SMTP_DKIM_SELECTOR!, privateKey: key.key }
  }
  if (problems.length > 0 || !from || !url.settings) return { problems }
  return { mail: { transport: 'smtp', from, smtp: { ...url.settings, dkim } }, problems }
}

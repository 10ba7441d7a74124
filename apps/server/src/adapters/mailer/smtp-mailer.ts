import type { ConnectionOptions } from 'node:tls'
import { createTransport, type NodemailerError } from 'nodemailer'
import type { MailAddress, SmtpSettings } from '../../mail-config.ts'
import { mailIdFor } from './mail-id.ts'
import { mimeMessage } from './mime-message.ts'
import type { Mailer } from './port.ts'

/**
 * Why a message did not go out. `permanent` is the server's own verdict (a
 * 5xx reply: the same message would be refused again); a refused
 * connection, a timeout or a 4xx reply is transient. Either way `send`
 * rejects and the job that sent it retries within its limit. The message
 * carries the server's reply, never the credentials.
 */
export class MailDeliveryError extends Error {
  readonly permanent: boolean
  readonly responseCode: number | undefined
  constructor(error: NodemailerError) {
    // nodemailer's `response` is the server's whole reply line, code first ("550 5.1.1 No such user").
    const response = (error.response ?? '').slice(0, 300)
    const reply = error.responseCode
      ? response.startsWith(String(error.responseCode))
        ? response
        : `${error.responseCode} ${response}`.trim()
      : (error.code ?? 'error')
    super(`SMTP ${error.command ? `${error.command.split(' ')[0]} ` : ''}failed: ${reply}`)
    this.name = 'MailDeliveryError'
    this.permanent = error.permanent === true
    this.responseCode = error.responseCode
  }
}

/**
 * nodemailer's signed headers with List-Unsubscribe-Post added: RFC 8058 asks
 * that the signature cover both one-click headers, else receivers ignore them.
 */
const dkimFieldNames = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'Content-ID',
  'Content-Description',
  'Resent-Date',
  'Resent-From',
  'Resent-Sender',
  'Resent-To',
  'Resent-Cc',
  'Resent-Message-ID',
  'In-Reply-To',
  'References',
  'List-Id',
  'List-Help',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'List-Subscribe',
  'List-Post',
  'List-Owner',
  'List-Archive',
].join(':')

export interface SmtpMailer extends Mailer {
  /** Connects, says EHLO, upgrades to TLS where required and logs in, sending nothing (`cli doctor`). */
  verify(): Promise<void>
  /** Closes the pooled connections (on shutdown). */
  close(): void
}

/**
 * The mailer for production: SMTP with nodemailer (SMTP_URL), over TLS
 * (implicit with smtps://, STARTTLS required with smtp://), with the
 * credentials from the URL and DKIM signing when configured. The server's
 * certificate is checked against the system's CAs; `trustedCertificates`
 * exists for the tests' self-signed server only (config never sets it).
 */
export function createSmtpMailer(options: {
  smtp: SmtpSettings
  from: MailAddress
  now?: () => Date
  trustedCertificates?: string[]
  /** Milliseconds; a server that stops answering fails the attempt (the job retries) instead of hanging it. */
  timeoutMs?: number
}): SmtpMailer {
  const { smtp } = options
  const timeout = options.timeoutMs ?? 10_000
  const tls: ConnectionOptions = {
    rejectUnauthorized: true,
    minVersion: 'TLSv1.2',
    ...(options.trustedCertificates ? { ca: options.trustedCertificates } : {}),
  }
  const transport = createTransport({
    pool: true,
    maxConnections: 3,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTls,
    tls,
    auth: smtp.auth,
    dkim: smtp.dkim ? { ...smtp.dkim, headerFieldNames: dkimFieldNames } : undefined,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 3,
    // nodemailer's logger would print the SMTP dialogue (AUTH included): keep it off.
    logger: false,
    debug: false,
  })
  const now = options.now ?? (() => new Date())
  // The Message-ID's right-hand side is the sending domain, as receivers' spam filters expect.
  const messageIdDomain = options.from.address.split('@').pop()!
  return {
    async send(message) {
      const id = mailIdFor(message.key)
      try {
        await transport.sendMail(mimeMessage(message, { from: options.from, messageId: `<${id}@${messageIdDomain}>`, date: now() }))
      } catch (error) {
        throw new MailDeliveryError(error as NodemailerError)
      }
      return { id }
    },
    async verify() {
      try {
        await transport.verify()
      } catch (error) {
        throw new MailDeliveryError(error as NodemailerError)
      }
    },
    close() {
      transport.close()
    },
  }
}

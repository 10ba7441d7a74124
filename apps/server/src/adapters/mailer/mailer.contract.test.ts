import { generateKeyPairSync } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type ParsedMail, simpleParser } from 'mailparser'
import { generate } from 'selfsigned'
import { SMTPServer } from 'smtp-server'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SmtpSettings } from '../../mail-config.ts'
import { parseDevMail } from './dev-mailbox.ts'
import { createFileMailer } from './file-mailer.ts'
import type { Mailer } from './port.ts'
import { createSmtpMailer, MailDeliveryError } from './smtp-mailer.ts'

/*
 * One set of expectations for every Mailer: what arrives (parsed with
 * mailparser, as a mail client would read it) is what was sent. The file
 * mailer's files are parsed as they lie; the SMTP mailer talks to an
 * in-process smtp-server on a free port that requires AUTH, and only over
 * TLS (STARTTLS or implicit), with a certificate made for this test that the
 * mailer is told to trust, and nothing else.
 */

const from = { name: 'Pactum', address: 'no-reply@pactum.example' }
const user = 'pactum'
const password = 'p@ss:wörd/1'

interface Harness {
  mailer: Mailer
  /** What arrived so far, oldest first. */
  received(): Promise<ParsedMail[]>
  /** Makes the next send fail the way this transport fails. */
  breakIt(): Promise<void>
  close(): Promise<void>
}

let certificate: { key: string; cert: string }
beforeAll(async () => {
  const made = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    notAfterDate: new Date(Date.now() + 86_400_000),
  })
  certificate = { key: made.private, cert: made.cert }
})

interface SmtpServerOptions {
  implicitTls: boolean
  /** Answer RCPT TO with this SMTP reply, e.g. [550, 'No such user']. */
  rejectRecipient?: () => [number, string] | undefined
}

/** An SMTP server on a free port that takes one user, only over TLS, and keeps what it was given. */
async function startSmtpServer(options: SmtpServerOptions) {
  const raw: Buffer[] = []
  const authenticated: string[] = []
  const server = new SMTPServer({
    secure: options.implicitTls,
    key: certificate.key,
    cert: certificate.cert,
    authMethods: ['PLAIN', 'LOGIN'],
    // smtp-server's default, spelled out: no AUTH before TLS.
    allowInsecureAuth: false,
    disabledCommands: [],
    logger: false,
    onAuth(auth, session, callback) {
      if (!session.secure) return callback(new Error('TLS first'))
      if (auth.username !== user || auth.password !== password) return callback(new Error('Invalid username or password'))
      authenticated.push(auth.username)
      callback(null, { user: auth.username })
    },
    onRcptTo(_address, session, callback) {
      if (!session.user) return callback(new Error('Authentication required'))
      const rejection = options.rejectRecipient?.()
      if (!rejection) return callback()
      callback(Object.assign(new Error(rejection[1]), { responseCode: rejection[0] }))
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        raw.push(Buffer.concat(chunks))
        callback()
      })
    },
  })
  // A client that gives up mid-handshake (the untrusted-certificate case) is the client's failure, not the test's.
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    raw,
    authenticated,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function smtpSettings(port: number, implicitTls: boolean, overrides: Partial<SmtpSettings> = {}): SmtpSettings {
  return {
    host: '127.0.0.1',
    port,
    secure: implicitTls,
    requireTls: !implicitTls,
    auth: { user, pass: password },
    dkim: undefined,
    ...overrides,
  }
}

async function smtpHarness(implicitTls: boolean): Promise<Harness> {
  let reject: [number, string] | undefined
  const server = await startSmtpServer({ implicitTls, rejectRecipient: () => reject })
  const mailer = createSmtpMailer({
    smtp: smtpSettings(server.port, implicitTls),
    from,
    trustedCertificates: [certificate.cert],
    timeoutMs: 5000,
  })
  return {
    mailer,
    received: () => Promise.all(server.raw.map((message) => simpleParser(message))),
    breakIt: async () => {
      reject = [550, 'No such user here']
    },
    close: async () => {
      mailer.close()
      await server.close()
    },
  }
}

async function fileHarness(): Promise<Harness & { files(): Promise<string[]> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'pactum-mail-'))
  const mailDir = path.join(root, 'mail')
  let dir = mailDir
  let clock = Date.parse('2026-11-24T10:00:00Z')
  const mailer: Mailer = {
    // The folder is read each time, so breakIt can point it at something that is not a folder.
    send: (message) => createFileMailer({ dir, from, now: () => new Date((clock += 1000)) }).send(message),
  }
  const files = async () => (await readdir(mailDir).catch(() => [])).sort().map((file) => path.join(mailDir, file))
  return {
    mailer,
    files,
    received: async () => Promise.all((await files()).map(async (file) => simpleParser(await readFile(file)))),
    breakIt: async () => {
      dir = path.join(root, 'not-a-folder')
      await writeFile(dir, 'a file where the mail folder should be')
    },
    close: () => rm(root, { recursive: true, force: true }),
  }
}

const adapters: Array<[string, () => Promise<Harness>]> = [
  ['file mailer', fileHarness],
  ['SMTP mailer over STARTTLS', () => smtpHarness(false)],
  ['SMTP mailer over implicit TLS', () => smtpHarness(true)],
]

describe.each(adapters)('%s', (_name, start) => {
  let harness: Harness
  beforeAll(async () => {
    harness = await start()
  })
  afterAll(async () => {
    await harness.close()
  })

  it('delivers to, from, reply-to, subject and a UTF-8 text with the Message-ID it returns', async () => {
    const sent = await harness.mailer.send({
      to: 'bea.buyer@example.com',
      replyTo: 'ola.sprzedawca@example.pl',
      subject: 'Zażółć gęślą jaźń – Hyvää päivää, äiti',
      text: 'Cześć Bea,\n\nTwoja płatność 120,00 zł została przyjęta.\nKiitos — näkemiin!\n',
    })
    const [mail] = (await harness.received()).slice(-1)
    expect(mail!.to).toMatchObject({ value: [{ address: 'bea.buyer@example.com' }] })
    expect(mail!.from).toMatchObject({ value: [{ address: 'no-reply@pactum.example', name: 'Pactum' }] })
    expect(mail!.replyTo).toMatchObject({ value: [{ address: 'ola.sprzedawca@example.pl' }] })
    expect(mail!.subject).toBe('Zażółć gęślą jaźń – Hyvää päivää, äiti')
    expect(mail!.text?.replace(/\r\n/g, '\n').trimEnd()).toBe(
      'Cześć Bea,\n\nTwoja płatność 120,00 zł została przyjęta.\nKiitos — näkemiin!',
    )
    expect(sent.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(mail!.messageId).toMatch(new RegExp(`^<${sent.id}@[a-z0-9.-]+>$`))
    expect(mail!.date).toBeInstanceOf(Date)
  })

  it('keeps one recipient and one header line whatever the fields hold', async () => {
    await harness.mailer.send({ to: 'one@example.com\r\n', subject: 'Line one\r\nBcc: three@example.com', text: 'x' })
    const [mail] = (await harness.received()).slice(-1)
    expect(mail!.bcc).toBeUndefined()
    expect(mail!.headers.has('bcc')).toBe(false)
    expect(mail!.to).toMatchObject({ value: [{ address: 'one@example.com' }] })
    expect((mail!.to as { value: unknown[] }).value).toHaveLength(1)
    expect(mail!.subject).toMatch(/^Line one\s+Bcc: three@example.com$/)
  })

  it('gives every attempt at one e-mail (one key) the same Message-ID, and other e-mails their own', async () => {
    const first = await harness.mailer.send({ to: 'bea@example.com', subject: 'Paid', text: 'x', key: 'notification:abc' })
    const again = await harness.mailer.send({ to: 'bea@example.com', subject: 'Paid', text: 'x', key: 'notification:abc' })
    const other = await harness.mailer.send({ to: 'bea@example.com', subject: 'Paid', text: 'x', key: 'notification:abd' })
    const unkeyed = [
      await harness.mailer.send({ to: 'bea@example.com', subject: 'Hi', text: 'x' }),
      await harness.mailer.send({ to: 'bea@example.com', subject: 'Hi', text: 'x' }),
    ]
    expect(again.id).toBe(first.id)
    expect(other.id).not.toBe(first.id)
    expect(unkeyed[0]!.id).not.toBe(unkeyed[1]!.id)
    const ids = (await harness.received()).slice(-5).map((mail) => mail.messageId)
    expect(ids[0]).toBe(ids[1])
    expect(new Set(ids).size).toBe(4)
  })

  it('carries the one-click unsubscribe headers of RFC 8058 when asked, on one line each, and none otherwise', async () => {
    await harness.mailer.send({
      to: 'bea@example.com',
      subject: 'Invited',
      text: 'x',
      listUnsubscribe: 'https://pactum.example/stop-invitations/abc?lang=en_gb>\r\nBcc: x@example.com',
    })
    const [mail] = (await harness.received()).slice(-1)
    const line = (key: string) => mail!.headerLines.find((header) => header.key === key)?.line.replace(/\r\n\s+/g, ' ')
    expect(line('list-unsubscribe')).toBe('List-Unsubscribe: <https://pactum.example/stop-invitations/abc?lang=en_gbBcc:x@example.com>')
    expect(line('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
    expect(mail!.headers.has('bcc')).toBe(false)
    await harness.mailer.send({ to: 'bea@example.com', subject: 'Paid', text: 'x' })
    const [plain] = (await harness.received()).slice(-1)
    expect(plain!.headers.has('list-unsubscribe')).toBe(false)
    expect(plain!.headers.has('list-unsubscribe-post')).toBe(false)
  })

  it('sends the HTML as the alternative of the text, and attachments beside them, byte for byte', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 1, 2, 254, 255]), Buffer.from('\n%%EOF\n')])
    const html =
      '<!DOCTYPE html><html lang="fi-FI"><body><p>Hyvää päivää, <a href="https://pactum.example/t/1?a=1&amp;b=2">avaa</a></p></body></html>'
    await harness.mailer.send({
      to: 'bea@example.com',
      subject: 'Kuitti',
      text: 'Hyvää päivää\nAvaa: https://pactum.example/t/1?a=1&b=2\n',
      html,
      attachments: [{ filename: 'pactum-receipt-abc.pdf\r\nX-Evil: 1', contentType: 'application/pdf', content: pdf }],
    })
    const [mail] = (await harness.received()).slice(-1)
    expect(mail!.html).toBe(html)
    expect(mail!.text?.replace(/\r\n/g, '\n').trimEnd()).toBe('Hyvää päivää\nAvaa: https://pactum.example/t/1?a=1&b=2')
    expect(mail!.headers.get('content-type')).toMatchObject({ value: 'multipart/mixed' })
    expect(mail!.attachments).toHaveLength(1)
    expect(mail!.attachments[0]).toMatchObject({ contentType: 'application/pdf', filename: 'pactum-receipt-abc.pdf X-Evil: 1' })
    expect(Buffer.compare(mail!.attachments[0]!.content, pdf)).toBe(0)
    expect(mail!.headers.has('x-evil')).toBe(false)
  })

  it('sends text and HTML without attachments as multipart/alternative, and text alone as text/plain', async () => {
    await harness.mailer.send({ to: 'bea@example.com', subject: 'Both', text: 'x', html: '<p>x</p>' })
    const [both] = (await harness.received()).slice(-1)
    expect(both!.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' })
    expect(both!.attachments).toEqual([])
    await harness.mailer.send({ to: 'bea@example.com', subject: 'Plain', text: 'x' })
    const [plain] = (await harness.received()).slice(-1)
    expect(plain!.headers.get('content-type')).toMatchObject({ value: 'text/plain' })
    expect(plain!.html).toBe(false)
  })

  it('rejects when the message cannot be delivered, so the job retries', async () => {
    const before = (await harness.received()).length
    await harness.breakIt()
    await expect(harness.mailer.send({ to: 'bea@example.com', subject: 'Lost?', text: 'x' })).rejects.toThrow()
    expect(await harness.received()).toHaveLength(before)
  })
})

/** DKIM for pactum.example under the selector mail2026, with a fresh key. */
function dkimSettings() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    domainName: 'pactum.example',
    keySelector: 'mail2026',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  }
}

describe('SMTP mailer', () => {
  const servers: Array<{ close(): Promise<void> }> = []
  const mailers: Array<{ close(): void }> = []
  afterEach(async () => {
    for (const mailer of mailers.splice(0)) mailer.close()
    for (const server of servers.splice(0)) await server.close()
  })

  async function serverAndMailer(options: SmtpServerOptions, settings: Partial<SmtpSettings> = {}, trusted = true) {
    const server = await startSmtpServer(options)
    servers.push(server)
    const mailer = createSmtpMailer({
      smtp: smtpSettings(server.port, options.implicitTls, settings),
      from,
      ...(trusted ? { trustedCertificates: [certificate.cert] } : {}),
      timeoutMs: 5000,
    })
    mailers.push(mailer)
    return { server, mailer }
  }

  it('authenticates with the user and password from the URL, after TLS', async () => {
    const { server, mailer } = await serverAndMailer({ implicitTls: false })
    await mailer.send({ to: 'bea@example.com', subject: 'Hi', text: 'x' })
    expect(server.authenticated).toEqual([user])
  })

  it('refuses a server whose certificate it was not told to trust', async () => {
    const { server, mailer } = await serverAndMailer({ implicitTls: true }, {}, false)
    await expect(mailer.send({ to: 'bea@example.com', subject: 'Hi', text: 'x' })).rejects.toBeInstanceOf(MailDeliveryError)
    expect(server.raw).toHaveLength(0)
  })

  it('fails on a wrong password without putting the password in the error', async () => {
    const { mailer } = await serverAndMailer({ implicitTls: false }, { auth: { user, pass: 'wrong-secret-123' } })
    const error = await mailer.send({ to: 'bea@example.com', subject: 'Hi', text: 'x' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(MailDeliveryError)
    expect(JSON.stringify({ message: (error as Error).message, ...(error as object) })).not.toContain('wrong-secret-123')
  })

  it('tells a transient refusal (4xx) from a permanent one (5xx)', async () => {
    let reply: [number, string] = [451, 'Try again later']
    const { mailer } = await serverAndMailer({ implicitTls: false, rejectRecipient: () => reply })
    const transient = await mailer.send({ to: 'bea@example.com', subject: 'Hi', text: 'x' }).catch((caught: unknown) => caught)
    expect(transient).toMatchObject({ permanent: false, responseCode: 451 })
    reply = [550, 'No such user']
    const permanent = await mailer.send({ to: 'bea@example.com', subject: 'Hi', text: 'x' }).catch((caught: unknown) => caught)
    expect(permanent).toMatchObject({ permanent: true, responseCode: 550 })
    expect((permanent as Error).message).toContain('550 No such user')
    expect((permanent as Error).message).not.toContain('550 550')
  })

  it('signs with the configured DKIM key: the DKIM-Signature names the domain and selector', async () => {
    const { server, mailer } = await serverAndMailer({ implicitTls: true }, { dkim: dkimSettings() })
    await mailer.send({ to: 'bea@example.com', subject: 'Signed', text: 'Podpisane' })
    const mail = await simpleParser(server.raw[0]!)
    const signature = mail.headerLines.find((header) => header.key === 'dkim-signature')?.line ?? ''
    expect(signature).toMatch(/\bd=pactum\.example;/)
    expect(signature).toMatch(/\bs=mail2026;/)
    expect(signature).toMatch(/\bb=[A-Za-z0-9+/=\s]{100,}/)
  })

  it('signs both one-click unsubscribe headers, as RFC 8058 asks', async () => {
    const { server, mailer } = await serverAndMailer({ implicitTls: true }, { dkim: dkimSettings() })
    await mailer.send({
      to: 'bea@example.com',
      subject: 'Invited',
      text: 'x',
      listUnsubscribe: 'https://pactum.example/stop-invitations/abc',
    })
    const mail = await simpleParser(server.raw[0]!)
    const signed = /\bh=([^;]+);/
      .exec((mail.headerLines.find((header) => header.key === 'dkim-signature')?.line ?? '').replace(/\r\n\s+/g, ''))?.[1]
      ?.toLowerCase()
      .split(':')
    expect(signed).toContain('list-unsubscribe')
    expect(signed).toContain('list-unsubscribe-post')
  })

  it('sends nothing unsigned-for when no DKIM is configured', async () => {
    const { server, mailer } = await serverAndMailer({ implicitTls: true })
    await mailer.send({ to: 'bea@example.com', subject: 'Plain', text: 'x' })
    expect((await simpleParser(server.raw[0]!)).headers.has('dkim-signature')).toBe(false)
  })
})

describe('the dev mailbox reads the file mailer as a mail client does', () => {
  it('finds the HTML alternative and the attachments', async () => {
    const harness = await fileHarness()
    try {
      await harness.mailer.send({
        to: 'bea@example.com',
        subject: 'Receipt',
        text: 'Plain words',
        html: '<p>Rich <b>words</b></p>',
        attachments: [{ filename: 'receipt.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.7 body') }],
      })
      const [file] = await harness.files()
      const mine = await parseDevMail(path.basename(file!, '.eml'), await readFile(file!))
      expect(mine.text.trimEnd()).toBe('Plain words')
      expect(mine.html).toBe('<p>Rich <b>words</b></p>')
      expect(mine.attachments).toEqual([{ filename: 'receipt.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.7 body') }])
    } finally {
      await harness.close()
    }
  })

  it('makes its folder again when it went away after the first e-mail', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'pactum-mail-'))
    const dir = path.join(root, 'mail')
    const mailer = createFileMailer({ dir, from })
    try {
      await mailer.send({ to: 'one@example.com', subject: 'First', text: 'x' })
      await rm(dir, { recursive: true })
      await mailer.send({ to: 'two@example.com', subject: 'Second', text: 'y' })
      const names = await readdir(dir)
      expect(names).toHaveLength(1)
      expect((await simpleParser(await readFile(path.join(dir, names[0]!)))).subject).toBe('Second')
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })

  it('finds the same to, from, reply-to, subject, Message-ID and text as mailparser', async () => {
    const harness = await fileHarness()
    try {
      const { id } = await harness.mailer.send({
        to: 'äiti@example.fi',
        replyTo: 'x@example.com',
        subject: 'Päivää – dzień dobry',
        text: 'Łódź\nÄänekoski\n',
      })
      const [parsed] = await harness.received()
      const [file] = await harness.files()
      const mine = await parseDevMail(path.basename(file!, '.eml'), await readFile(file!))
      expect(mine).toMatchObject({
        to: 'äiti@example.fi',
        replyTo: 'x@example.com',
        subject: parsed!.subject,
        messageId: parsed!.messageId,
        text: 'Łódź\nÄänekoski\n',
      })
      expect(mine.messageId).toContain(id)
      expect(mine.from).toContain('no-reply@pactum.example')
      expect(mine.date.getTime()).toBe(parsed!.date!.getTime())
    } finally {
      await harness.close()
    }
  })
})

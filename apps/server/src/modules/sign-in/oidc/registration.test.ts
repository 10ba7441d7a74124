import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { decodeJwt } from 'jose'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../config.ts'
import { buildApp } from '../../../http/app.ts'
import { createTestDatabase } from '../../../testing/test-database.ts'
import { writtenMails } from '../../../testing/written-mails.ts'
import { createAccount } from './accounts.ts'
import { authorizationUrl, interactionPath, pkcePair, TestBrowser, testPublicUrl, tokensAfter } from './test-browser.ts'
import { openRegistrationLink, registrationLinkFor } from './test-registration.ts'
import { testPasswordCost } from '../../../testing/test-password-cost.ts'

const issuer = `${testPublicUrl}/oidc`
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function startServer(env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-registration-'))
  const database = await createTestDatabase()
  cleanups.push(async () => {
    await database.close()
    await rm(dataDir, { recursive: true, force: true })
  })
  // A clock the test moves: the links expire after a day.
  let now = new Date()
  const clock = { now: () => now }
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: testPublicUrl, ...env })
  const app = await buildApp({ config, database, webDistDir: path.join(dataDir, 'no-web'), clock })
  await app.ready()
  cleanups.push(() => app.close())
  return { app, db: database.db, dataDir, moveClock: (hours: number) => (now = new Date(now.getTime() + hours * 3_600_000)) }
}

const anna = { firstName: 'Anna', lastName: 'Kowalska', email: 'Anna.Kowalska@Example.com', password: 'correct horse 42' }
const annaAddress = 'anna.kowalska@example.com'

async function openRegistration(browser: TestBrowser) {
  const pkce = pkcePair()
  const start = await browser.request({ url: authorizationUrl({ challenge: pkce.challenge, prompt: 'create' }) })
  return { ...pkce, pagePath: interactionPath(start) }
}

async function register(browser: TestBrowser, form: typeof anna) {
  const { pagePath, verifier } = await openRegistration(browser)
  return { verifier, pagePath, response: await browser.request({ method: 'POST', url: `${pagePath}/register`, form }) }
}

async function signIn(browser: TestBrowser, person: { email: string; password: string }) {
  const pkce = pkcePair()
  const pagePath = interactionPath(await browser.request({ url: authorizationUrl({ challenge: pkce.challenge }) }))
  return {
    ...pkce,
    response: await browser.request({ method: 'POST', url: `${pagePath}/login`, form: { email: person.email, password: person.password } }),
  }
}

const passwordHashOf = async (db: Awaited<ReturnType<typeof startServer>>['db'], email: string) =>
  (await db.selectFrom('accounts').select('password_hash').where('email', '=', email).executeTakeFirst())?.password_hash

describe('registration answers the same for every address (issue 30)', () => {
  it('shows one page, one status, for a free and a taken address, and e-mails the owner of the taken one instead', async () => {
    const { app, db, dataDir } = await startServer()
    const bob = { firstName: 'Bob', lastName: 'Nowak', email: 'bob@example.com', password: 'bobs horse 7' }
    await createAccount(db, { ...bob, locale: 'en_gb' }, testPasswordCost)
    const hashBefore = await passwordHashOf(db, 'bob@example.com')

    const free = (await register(new TestBrowser(app), anna)).response
    const taken = (await register(new TestBrowser(app), { ...anna, email: 'BOB@example.com' })).response
    expect(free.statusCode).toBe(200)
    expect(taken.statusCode).toBe(200)
    // Only the address and the file mailer's message id (random) differ.
    const masked = (body: string) =>
      body
        .replace(/anna\.kowalska@example\.com|bob@example\.com/g, 'ADDRESS')
        .replace(/\/oidc\/sent-mail\/[0-9a-f-]+/g, '/oidc/sent-mail/ID')
        .replace(/\/oidc\/interaction\/[A-Za-z0-9_-]+/g, '/oidc/interaction/UID')
    expect(masked(taken.body)).toBe(masked(free.body))
    expect(free.body).toContain('<h1>Check your inbox</h1>')
    expect(free.body).toContain('We sent a message to anna.kowalska@example.com. Open the link in it to finish creating your account.')
    expect(taken.body).toContain('We sent a message to bob@example.com.')

    // Written in the same millisecond of the test's clock: their order is the random part of the file names.
    const mails = (await writtenMails(dataDir)).sort((a, b) => a.to.localeCompare(b.to))
    expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([
      [annaAddress, 'Finish creating your Pactum account'],
      ['bob@example.com', 'Someone tried to create a Pactum account with your address'],
    ])
    const notice = mails[1]!.text
    expect(notice).toMatch(/^Hello Bob,\n/)
    expect(notice).toContain(
      'Someone — perhaps you — tried to create a Pactum account with this address. You already have one: sign in, or reset your password if you forgot it.',
    )
    expect(notice).toContain(`\nSign in: ${testPublicUrl}/\n`)
    expect(notice).toContain(`\n${issuer}/forgot-password?lang=en_gb\n`)
    expect(notice).not.toMatch(/complete-registration/)

    // Nothing changed on Bob's account, nothing is pending for his address, and no account exists for Anna yet.
    expect(await passwordHashOf(db, 'bob@example.com')).toBe(hashBefore)
    expect(await db.selectFrom('pending_registrations').select('email').execute()).toEqual([{ email: annaAddress }])
    expect(await db.selectFrom('accounts').select('email').execute()).toEqual([{ email: 'bob@example.com' }])
  })

  it('still shows the form with its errors for an invalid one, and creates nothing', async () => {
    const { app, db } = await startServer()
    const { response } = await register(new TestBrowser(app), { ...anna, password: 'short' })
    expect(response.statusCode).toBe(400)
    expect(response.body).toContain('<li>Use at least 10 characters.</li>')
    expect(await db.selectFrom('pending_registrations').select('email').execute()).toEqual([])
  })
})

describe('an invitation’s address (OIDC login_hint, issue 33 item 8)', () => {
  const fieldValue = (body: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(body)?.[0] ?? ''

  it('is filled in on the registration and sign-in pages, escaped, and only when it reads as an address', async () => {
    const { app } = await startServer()
    const open = async (options: { prompt?: string; loginHint?: string }) => {
      const browser = new TestBrowser(app)
      const start = await browser.request({ url: authorizationUrl({ challenge: pkcePair().challenge, ...options }) })
      return (await browser.request({ url: interactionPath(start) })).body
    }
    expect(fieldValue(await open({ prompt: 'create', loginHint: 'Guest@Example.com' }), 'email')).toContain('value="guest@example.com"')
    expect(fieldValue(await open({ loginHint: 'guest@example.com' }), 'email')).toContain('value="guest@example.com"')

    const hostile = await open({ prompt: 'create', loginHint: '"><script>x</script>@example.com' })
    expect(hostile).not.toContain('<script>x</script>')
    expect(fieldValue(hostile, 'email')).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;@example.com"')

    expect(fieldValue(await open({ prompt: 'create', loginHint: 'not an address' }), 'email')).toContain('value=""')
    expect(fieldValue(await open({ prompt: 'create' }), 'email')).toContain('value=""')
  })

  it('is only a prefill: the account is made for the address posted, and confirmed by its own link', async () => {
    const { app, dataDir } = await startServer()
    const browser = new TestBrowser(app)
    const pkce = pkcePair()
    const start = await browser.request({
      url: authorizationUrl({ challenge: pkce.challenge, prompt: 'create', loginHint: 'guest@example.com' }),
    })
    const posted = await browser.request({ method: 'POST', url: `${interactionPath(start)}/register`, form: anna })
    expect(posted.statusCode).toBe(200)
    const mails = await writtenMails(dataDir)
    expect(mails.map((mail) => mail.to)).toEqual([annaAddress])
  })
})

describe('the e-mailed link', () => {
  it('creates a confirmed account on its button, not on opening, and ends the sign-in the registration began in', async () => {
    const { app, db, dataDir } = await startServer()
    const browser = new TestBrowser(app)
    const { verifier } = await register(browser, anna)
    const link = await registrationLinkFor(dataDir, annaAddress)
    expect(link).toMatch(new RegExp(`^${issuer}/complete-registration/[A-Za-z0-9_-]{43}\\?lang=en_gb$`))
    const stored = await db.selectFrom('pending_registrations').selectAll().executeTakeFirstOrThrow()
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(stored)).not.toContain(link.split('/').at(-1)!.split('?')[0])
    expect(stored.password_hash).not.toContain(anna.password)
    expect(stored.expires_at.getTime() - stored.created_at.getTime()).toBe(24 * 3_600_000)

    // Opening the link (as a mail scanner would) only shows the button.
    const opened = await browser.request({ url: link })
    expect(opened.statusCode).toBe(200)
    expect(opened.body).toContain('<h1>Finish creating your account</h1>')
    expect(opened.body).toContain('Create your Pactum account for anna.kowalska@example.com.')
    expect(opened.body).toMatch(
      /<form method="post" action="\/oidc\/interaction\/[A-Za-z0-9_-]+\/complete-registration\/[A-Za-z0-9_-]{43}\?lang=en_gb">/,
    )
    expect(await db.selectFrom('accounts').select('id').execute()).toEqual([])

    const tokens = await tokensAfter(browser, await openRegistrationLink(browser, link), verifier)
    expect(decodeJwt(tokens.access_token)).toMatchObject({ email: annaAddress, email_verified: true, given_name: 'Anna' })
    const account = await db.selectFrom('accounts').select(['email', 'email_verified_at', 'locale']).executeTakeFirstOrThrow()
    expect(account).toMatchObject({ email: annaAddress, locale: 'en_gb' })
    expect(account.email_verified_at).toBeInstanceOf(Date)
    expect(await db.selectFrom('pending_registrations').select('email').execute()).toEqual([])
    // The password of the form is the account's.
    expect((await signIn(new TestBrowser(app), anna)).response.statusCode).toBe(303)

    // Used: it reads as no longer working, and creates nothing twice.
    const again = await openRegistrationLink(new TestBrowser(app), link).catch(() => undefined)
    expect(again).toBeUndefined()
    const reopened = await browser.request({ url: link })
    expect(reopened.statusCode).toBe(404)
    expect(reopened.body).toContain('<h1>This link no longer works</h1>')
  })

  it('says the account is ready when opened in another browser, which then signs in', async () => {
    const { app, dataDir } = await startServer()
    await register(new TestBrowser(app), anna)
    const phone = new TestBrowser(app, { remoteAddress: '198.51.100.7' })
    const done = await openRegistrationLink(phone, await registrationLinkFor(dataDir, annaAddress))
    expect(done.statusCode).toBe(200)
    expect(done.body).toContain('<h1>Your account is ready</h1>')
    expect(done.body).toContain(`<a href="${testPublicUrl}/">Sign in to Pactum</a>`)
    const { response, verifier } = await signIn(phone, anna)
    expect(decodeJwt((await tokensAfter(phone, response, verifier)).access_token).email_verified).toBe(true)
  })

  it('has expired after a day, and a dead POST creates nothing', async () => {
    const { app, db, dataDir, moveClock } = await startServer()
    const browser = new TestBrowser(app)
    await register(browser, anna)
    const link = await registrationLinkFor(dataDir, annaAddress)
    const action = /action="([^"]+)"/.exec((await browser.request({ url: link })).body)![1]!.replace(/&amp;/g, '&')
    moveClock(24)
    const opened = await browser.request({ url: link })
    expect(opened.statusCode).toBe(410)
    expect(opened.body).toContain('<h1>This link has expired</h1>')
    expect(opened.body).toContain('work for 24 hours')
    const pressed = await browser.request({ method: 'POST', url: action })
    expect(pressed.statusCode).toBe(410)
    expect(await db.selectFrom('accounts').select('id').execute()).toEqual([])
    const forged = await browser.request({
      method: 'POST',
      url: action.replace(/complete-registration\/[^?]+/, `complete-registration/${'A'.repeat(43)}`),
    })
    expect(forged.statusCode).toBe(404)
  })

  it('offers sign-in when an account with the address appeared meanwhile, and leaves that account alone', async () => {
    const { app, db, dataDir } = await startServer()
    const browser = new TestBrowser(app)
    await register(browser, anna)
    await createAccount(db, { ...anna, password: 'the other one 9', locale: null }, testPasswordCost)
    const hash = await passwordHashOf(db, annaAddress)
    const done = await openRegistrationLink(browser, await registrationLinkFor(dataDir, annaAddress))
    expect(done.statusCode).toBe(409)
    expect(done.body).toContain('<h1>You already have an account</h1>')
    expect(done.body).toContain(`<a href="${testPublicUrl}/">Sign in to Pactum</a>`)
    expect(done.body).toContain('/oidc/forgot-password?lang=en_gb')
    expect(await passwordHashOf(db, annaAddress)).toBe(hash)
    expect(await db.selectFrom('pending_registrations').select('email').execute()).toEqual([])
  })

  it('is replaced by a second registration of the address: the latest password wins, the first link dies', async () => {
    const { app, dataDir, moveClock } = await startServer()
    const browser = new TestBrowser(app)
    await register(browser, anna)
    const first = await registrationLinkFor(dataDir, annaAddress)
    // The mails' file names start with the time: a minute apart, the newest is the last.
    moveClock(1 / 60)
    const { verifier } = await register(browser, { ...anna, password: 'a newer horse 8' })
    const second = await registrationLinkFor(dataDir, annaAddress)
    expect(second).not.toBe(first)
    expect((await browser.request({ url: first })).statusCode).toBe(404)
    await tokensAfter(browser, await openRegistrationLink(browser, second), verifier)
    expect((await signIn(new TestBrowser(app), anna)).response.statusCode).toBe(401)
    expect((await signIn(new TestBrowser(app), { ...anna, password: 'a newer horse 8' })).response.statusCode).toBe(303)
  })
})

describe('an address with only a pending registration', () => {
  it('cannot sign in: the same answer as an unknown address', async () => {
    const { app } = await startServer()
    await register(new TestBrowser(app), anna)
    const pending = (await signIn(new TestBrowser(app), anna)).response
    const unknown = (await signIn(new TestBrowser(app), { email: 'nobody@example.com', password: anna.password })).response
    expect(pending.statusCode).toBe(401)
    expect(unknown.statusCode).toBe(401)
    expect(pending.body).toContain('The e-mail or password is incorrect.')
  })
})

describe('limits on the e-mails registration sends', () => {
  it('sends at most three an hour to one address, links and owner notices alike, with the same page beyond', async () => {
    const { app, db, dataDir, moveClock } = await startServer()
    const pages: string[] = []
    for (let attempt = 0; attempt < 4; attempt++) {
      moveClock(1 / 60)
      const response = (await register(new TestBrowser(app, { remoteAddress: `198.51.100.${attempt + 1}` }), anna)).response
      expect(response.statusCode).toBe(200)
      pages.push(response.body)
    }
    expect(pages[3]).toContain('<h1>Check your inbox</h1>')
    expect(await writtenMails(dataDir)).toHaveLength(3)

    // The count is the address's, whether or not it has an account by now.
    await openRegistrationLink(new TestBrowser(app), await registrationLinkFor(dataDir, annaAddress))
    await register(new TestBrowser(app, { remoteAddress: '198.51.100.9' }), anna)
    expect(await writtenMails(dataDir)).toHaveLength(3)
    // Other addresses are not affected.
    await register(new TestBrowser(app, { remoteAddress: '198.51.100.9' }), { ...anna, email: 'carl@example.com' })
    expect(await writtenMails(dataDir)).toHaveLength(4)

    moveClock(1 - 4 / 60)
    await register(new TestBrowser(app, { remoteAddress: '198.51.100.9' }), anna)
    expect(await writtenMails(dataDir)).toHaveLength(4)
    moveClock(1 / 60)
    await register(new TestBrowser(app, { remoteAddress: '198.51.100.9' }), anna)
    const mails = await writtenMails(dataDir)
    expect(mails.at(-1)).toMatchObject({ to: annaAddress, subject: 'Someone tried to create a Pactum account with your address' })
    expect(await db.selectFrom('accounts').select('email').execute()).toEqual([{ email: annaAddress }])
  })

  it('answers 429 beyond the registrations per client address in an hour, without a word about the address', async () => {
    const { app } = await startServer({ REGISTRATIONS_PER_CLIENT_PER_HOUR: '2' })
    const browser = new TestBrowser(app, { remoteAddress: '203.0.113.5' })
    expect((await register(browser, anna)).response.statusCode).toBe(200)
    expect((await register(browser, { ...anna, email: 'bea@example.com' })).response.statusCode).toBe(200)
    const limited = (await register(browser, { ...anna, email: 'carl@example.com' })).response
    expect(limited.statusCode).toBe(429)
    expect(limited.body).toContain('Too many requests from your network.')
    expect(limited.body).not.toContain('carl@example.com')
    // Another client is not affected.
    expect(
      (await register(new TestBrowser(app, { remoteAddress: '203.0.113.6' }), { ...anna, email: 'carl@example.com' })).response.statusCode,
    ).toBe(200)
  })
})

describe("the file mailer's link (a machine of one's own)", () => {
  it('names the folder and opens the message just written, for a browser on this machine only', async () => {
    const { app, dataDir } = await startServer()
    const local = await register(new TestBrowser(app), anna)
    expect(local.response.body).toContain(
      `This Pactum server writes its e-mails to files instead of sending them, in ${path.join(dataDir, 'mail')}.`,
    )
    const href = /<a href="(\/oidc\/sent-mail\/[0-9a-f-]+)">Open the message<\/a>/.exec(local.response.body)?.[1]
    expect(href).toBeTruthy()
    const message = await new TestBrowser(app).request({ url: href! })
    expect(message.statusCode).toBe(200)
    expect(message.headers['cache-control']).toContain('no-store')
    expect(message.body).toContain('<h1>Finish creating your Pactum account</h1>')
    expect(message.body).toMatch(new RegExp(`<a href="${issuer}/complete-registration/[A-Za-z0-9_-]{43}\\?lang=en_gb">`))

    // Not to another machine, nor through a proxy, and no link on their page.
    expect((await new TestBrowser(app, { remoteAddress: '203.0.113.5' }).request({ url: href! })).statusCode).toBe(404)
    expect((await new TestBrowser(app).request({ url: href!, headers: { 'x-forwarded-for': '203.0.113.5' } })).statusCode).toBe(404)
    const remote = await register(new TestBrowser(app, { remoteAddress: '203.0.113.5' }), { ...anna, email: 'bea@example.com' })
    expect(remote.response.body).not.toContain('/oidc/sent-mail/')
    // Nor an id that is not a random one (keyed messages have ids someone could work out).
    expect(
      (await new TestBrowser(app).request({ url: '/oidc/sent-mail/1764000000000-00000000-0000-8000-8000-000000000000' })).statusCode,
    ).toBe(404)
  })

  it('is never offered with SMTP', async () => {
    // Nothing listens there: the send fails, and the page is the same.
    const { app } = await startServer({ SMTP_URL: 'smtp://127.0.0.1:9', SMTP_REQUIRE_TLS: 'false' })
    const { response } = await register(new TestBrowser(app), anna)
    expect(response.statusCode).toBe(200)
    expect(response.body).toContain('<h1>Check your inbox</h1>')
    expect(response.body).not.toContain('writes its e-mails to files')
    expect(response.body).not.toContain('sent-mail')
    expect(
      (await new TestBrowser(app).request({ url: '/oidc/sent-mail/1764000000000-00000000-0000-4000-8000-000000000000' })).statusCode,
    ).toBe(404)
  })
})

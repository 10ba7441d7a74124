import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createLocalJWKSet, decodeJwt, type JSONWebKeySet, jwtVerify } from 'jose'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../config.ts'
import type { Database } from '../../../db/database.ts'
import { buildApp } from '../../../http/app.ts'
import { createTestDatabase } from '../../../testing/test-database.ts'
import { writtenMails } from '../../../testing/written-mails.ts'
import { accountIdForEmail } from './account-id.ts'
import { createAccount } from './accounts.ts'
import { sendConfirmationLink } from './email-verification.ts'
import { authorizationUrl, interactionPath, pkcePair, refresh, TestBrowser, testPublicUrl, tokensAfter } from './test-browser.ts'
import { registerThroughLink } from './test-registration.ts'
import { mintAccessToken, signingKeyFilePath } from './token-minter.ts'
import { testPasswordCost } from '../../../testing/test-password-cost.ts'

const issuer = `${testPublicUrl}/oidc`
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function startServer(shared?: { database: Database; dataDir: string }, env: Record<string, string> = {}, clock?: { now(): Date }) {
  const dataDir = shared?.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'pactum-oidc-')))
  const database = shared?.database ?? (await createTestDatabase())
  if (!shared) {
    cleanups.push(async () => {
      await database.close()
      await rm(dataDir, { recursive: true, force: true })
    })
  }
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: testPublicUrl, ...env })
  const app = await buildApp({ config, database, webDistDir: path.join(dataDir, 'no-web'), ...(clock ? { clock } : {}) })
  await app.ready()
  cleanups.push(() => app.close())
  return { app, database, dataDir }
}

const anna = { firstName: 'Anna', lastName: 'Kowalska', email: 'Anna.Kowalska@Example.com', password: 'correct horse 42' }

async function jwksOf(browser: TestBrowser): Promise<JSONWebKeySet> {
  return (await browser.request({ url: '/oidc/jwks' })).json()
}

async function verifyAccessToken(token: string, jwks: JSONWebKeySet) {
  // Exactly how the API verifies (DESIGN §5).
  return jwtVerify(token, createLocalJWKSet(jwks), {
    issuer,
    audience: 'pactum-api',
    algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
    requiredClaims: ['sub', 'exp'],
  })
}

/** Authorization request → the page it leads to. */
async function openSignIn(browser: TestBrowser, options: { prompt?: string; uiLocales?: string } = {}) {
  const pkce = pkcePair()
  const start = await browser.request({ url: authorizationUrl({ challenge: pkce.challenge, ...options }) })
  expect(start.statusCode).toBe(303)
  const pagePath = interactionPath(start)
  const page = await browser.request({ url: pagePath })
  return { ...pkce, pagePath, page }
}

/** Anna's registration form, as `form` changes it, sent to a new server's create-account page. */
async function registerOnNewServer(form: typeof anna) {
  const { app } = await startServer()
  const browser = new TestBrowser(app)
  const { pagePath } = await openSignIn(browser, { prompt: 'create' })
  return browser.request({ method: 'POST', url: `${pagePath}/register`, form })
}

async function signInAs(browser: TestBrowser, person: { email: string; password: string }) {
  const { verifier, pagePath } = await openSignIn(browser)
  return tokensAfter(
    browser,
    await browser.request({ method: 'POST', url: `${pagePath}/login`, form: { email: person.email, password: person.password } }),
    verifier,
  )
}

/** Signed out for real: the refresh token died with the grant, and the next authorization asks again. */
async function expectSignedOut(browser: TestBrowser, refreshToken?: string) {
  if (refreshToken) expect((await refresh(browser.app, refreshToken)).json()).toMatchObject({ error: 'invalid_grant' })
  const { challenge } = pkcePair()
  const next = await browser.request({ url: authorizationUrl({ challenge }) })
  expect(interactionPath(next)).toContain('/oidc/interaction/')
}

describe('registration (prompt=create)', () => {
  it('creates the account once the e-mailed link is opened, and ends in a JWT access token the API accepts', async () => {
    const { app, dataDir } = await startServer()
    const browser = new TestBrowser(app)
    const { verifier, pagePath, page } = await openSignIn(browser, { prompt: 'create' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['cache-control']).toContain('no-store')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.body).toContain('<h1>Create your Pactum account</h1>')
    expect(page.body).not.toContain('<script')

    const tokens = await tokensAfter(browser, await registerThroughLink(browser, dataDir, pagePath, anna), verifier)
    expect(tokens.refresh_token).toBeTruthy()
    expect(tokens.expires_in).toBe(600)
    const { payload, protectedHeader } = await verifyAccessToken(tokens.access_token, await jwksOf(browser))
    expect(protectedHeader.typ).toBe('at+jwt')
    expect(payload).toMatchObject({
      iss: issuer,
      aud: 'pactum-api',
      sub: accountIdForEmail('anna.kowalska@example.com'),
      client_id: 'pactum-app',
      scope: 'api',
      email: 'anna.kowalska@example.com',
      given_name: 'Anna',
      family_name: 'Kowalska',
    })
    expect(payload.exp! - payload.iat!).toBe(600)
    // The web app reads the profile from the ID token.
    expect(decodeJwt(tokens.id_token)).toMatchObject({ given_name: 'Anna', family_name: 'Kowalska', email: 'anna.kowalska@example.com' })

    // And the API itself accepts the token.
    const me = await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${tokens.access_token}` } })
    expect(me.statusCode).toBeLessThan(300)
  })

  it('reached from the sign-in page by its link, for the same interaction', async () => {
    const { app, dataDir } = await startServer()
    const browser = new TestBrowser(app)
    const { verifier, pagePath, page } = await openSignIn(browser)
    expect(page.body).toContain('<h1>Sign in to Pactum</h1>')
    expect(page.body).toContain(`href="${pagePath}?view=register"`)
    const registration = await browser.request({ url: `${pagePath}?view=register` })
    expect(registration.body).toContain('Create your Pactum account')
    const tokens = await tokensAfter(browser, await registerThroughLink(browser, dataDir, pagePath, anna), verifier)
    expect(decodeJwt(tokens.access_token).email).toBe('anna.kowalska@example.com')
  })

  it('names each failing password rule next to the field and keeps the other values', async () => {
    const response = await registerOnNewServer({ ...anna, password: 'short' })
    expect(response.statusCode).toBe(400)
    expect(response.body).toContain('At least 10 characters, with at least one letter and one digit.')
    expect(response.body).toContain('<li>Use at least 10 characters.</li>')
    expect(response.body).toContain('<li>Include at least one digit.</li>')
    expect(response.body).toMatch(/id="password"[^>]*aria-describedby="password-hint password-error"[^>]*aria-invalid="true"/)
    expect(response.body).toContain('value="Kowalska"')
    expect(response.body).toContain('value="anna.kowalska@example.com"')
    expect(response.body).not.toContain('value="short"')
  })

  it('escapes what the user typed', async () => {
    const response = await registerOnNewServer({ ...anna, firstName: '"><script>alert(1)</script>', password: 'x' })
    expect(response.statusCode).toBe(400)
    expect(response.body).not.toContain('<script>')
    expect(response.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"')
  })
})

describe('sign-in', () => {
  it('signs in with the right password', async () => {
    const { app, database } = await startServer()
    await createAccount(database.db, { ...anna, locale: 'pl_pl' }, testPasswordCost)
    const browser = new TestBrowser(app)
    const { verifier, pagePath, page } = await openSignIn(browser)
    expect(page.body).toMatch(/<label for="email">E-mail<\/label>/)
    expect(page.body).toMatch(/<label for="password">Password<\/label>/)
    const tokens = await tokensAfter(
      browser,
      await browser.request({
        method: 'POST',
        url: `${pagePath}/login`,
        form: { email: ' anna.KOWALSKA@example.com', password: anna.password },
      }),
      verifier,
    )
    expect(decodeJwt(tokens.access_token).sub).toBe(accountIdForEmail(anna.email))
    expect(decodeJwt(tokens.id_token).locale).toBe('pl-PL')

    // With a session, the next authorization needs no page at all (silent renew).
    const again = pkcePair()
    const silent = await browser.request({ url: authorizationUrl({ challenge: again.challenge, prompt: 'none' }) })
    const { callback } = await browser.follow(silent)
    expect(callback?.searchParams.get('code')).toBeTruthy()
  })

  it('gives one message for a wrong password and an unknown e-mail, and keeps the e-mail', async () => {
    const { app, database } = await startServer()
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const browser = new TestBrowser(app)
    const { pagePath } = await openSignIn(browser)
    const wrong = await browser.request({
      method: 'POST',
      url: `${pagePath}/login`,
      form: { email: anna.email, password: 'wrong password 1' },
    })
    const unknown = await browser.request({
      method: 'POST',
      url: `${pagePath}/login`,
      form: { email: 'nobody@example.com', password: 'wrong password 1' },
    })
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401)
      expect(response.body).toContain('<div class="alert" role="alert"><p>The e-mail or password is incorrect.</p></div>')
      expect(response.body).not.toContain('wrong password 1')
    }
    expect(wrong.body).toContain('value="anna.kowalska@example.com"')
  })

  it('refuses a sixth attempt from one client address within 15 minutes, even with the right password', async () => {
    const { app, database } = await startServer()
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const browser = new TestBrowser(app, { remoteAddress: '203.0.113.9' })
    const { pagePath } = await openSignIn(browser)
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await browser.request({
        method: 'POST',
        url: `${pagePath}/login`,
        form: { email: anna.email, password: `guess number ${attempt}` },
      })
      expect(response.statusCode).toBe(401)
    }
    const refused = await browser.request({
      method: 'POST',
      url: `${pagePath}/login`,
      form: { email: anna.email, password: anna.password },
    })
    expect(refused.statusCode).toBe(429)
    const retryAfter = Number(refused.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(800)
    expect(retryAfter).toBeLessThanOrEqual(900)
    expect(refused.body).toContain('Too many failed sign-in attempts with this e-mail address.')
    expect(refused.body).toContain('wait 15 minutes')
    // Another address is not affected.
    const other = await browser.request({
      method: 'POST',
      url: `${pagePath}/login`,
      form: { email: 'other@example.com', password: 'whatever 123' },
    })
    expect(other.statusCode).toBe(401)
    // Nor is the owner, elsewhere.
    const owner = new TestBrowser(app, { remoteAddress: '198.51.100.20' })
    await signInAs(owner, anna)
  })

  it('limits form posts per client address', async () => {
    const { app } = await startServer()
    const browser = new TestBrowser(app)
    const { pagePath } = await openSignIn(browser)
    const statuses: number[] = []
    for (let i = 0; i < 21; i++) {
      statuses.push((await browser.request({ method: 'POST', url: `${pagePath}/login`, form: { email: '', password: '' } })).statusCode)
    }
    expect(statuses.slice(0, 20).every((status) => status === 400)).toBe(true)
    const limited = await browser.request({ method: 'POST', url: `${pagePath}/register`, form: {} })
    expect(statuses[20]).toBe(429)
    expect(limited.statusCode).toBe(400) // its own budget
  })

  it('speaks Polish with the locale cookie, and switches language by link', async () => {
    const { app } = await startServer()
    const browser = new TestBrowser(app)
    browser.cookies.set('locale', 'pl_pl')
    const { page, pagePath } = await openSignIn(browser, { uiLocales: 'fi' })
    expect(page.body).toContain('<html lang="pl-PL">')
    expect(page.body).toContain('<h1>Zaloguj się do Pactum</h1>')
    expect(page.body).toContain('<label for="password">Hasło</label>')
    expect(page.body).toContain('<button type="submit">Zaloguj się</button>')

    const swedish = await browser.request({ url: `${pagePath}?lang=sv_se` })
    expect(swedish.headers['set-cookie']).toBe('locale=sv_se; Path=/; Max-Age=315360000; SameSite=Lax')
    expect(swedish.body).toContain('<h1>Logga in på Pactum</h1>')
    expect(browser.cookies.get('locale')).toBe('sv_se')
  })

  it('uses ui_locales, then Accept-Language, when there is no cookie', async () => {
    const { app } = await startServer()
    const finnish = await openSignIn(new TestBrowser(app), { uiLocales: 'fi-FI en' })
    expect(finnish.page.body).toContain('<html lang="fi-FI">')
    const browser = new TestBrowser(app)
    const { pagePath } = await openSignIn(browser)
    const croatian = await browser.request({ url: pagePath, headers: { 'accept-language': 'de;q=1, hr;q=0.8, en;q=0.5' } })
    expect(croatian.body).toContain('<html lang="hr-HR">')
  })

  it('explains an expired or foreign interaction instead of failing', async () => {
    const { app } = await startServer()
    const browser = new TestBrowser(app)
    const response = await browser.request({ url: '/oidc/interaction/not-a-real-uid' })
    expect(response.statusCode).toBe(400)
    expect(response.body).toContain('This page has expired')
    const post = await browser.request({
      method: 'POST',
      url: '/oidc/interaction/not-a-real-uid/login',
      form: { email: 'a@b.cd', password: 'x' },
    })
    expect(post.statusCode).toBe(400)
  })
})

describe('throttles that stop attackers, not owners', () => {
  const failFrom = async (address: string, times: number) => {
    const attacker = new TestBrowser(app(), { remoteAddress: address })
    const { pagePath } = await openSignIn(attacker)
    const statuses: number[] = []
    for (let attempt = 1; attempt <= times; attempt++) {
      statuses.push(
        (
          await attacker.request({
            method: 'POST',
            url: `${pagePath}/login`,
            form: { email: anna.email, password: `guess ${address} ${attempt}` },
          })
        ).statusCode,
      )
    }
    return statuses
  }
  let current: Awaited<ReturnType<typeof startServer>>
  const app = () => current.app

  it("sets a signed device cookie, and attackers from other addresses cannot lock the owner's browser out", async () => {
    current = await startServer()
    await createAccount(current.database.db, { ...anna, locale: null }, testPasswordCost)
    const owner = new TestBrowser(current.app, { remoteAddress: '198.51.100.20' })
    const { verifier, pagePath } = await openSignIn(owner)
    const signedIn = await owner.request({ method: 'POST', url: `${pagePath}/login`, form: { email: anna.email, password: anna.password } })
    const setCookies = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? [])
    const device = setCookies.find((cookie) => cookie.startsWith('pactum_device='))
    expect(device).toMatch(
      /^pactum_device=v1\.[0-9a-f-]{36}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Path=\/oidc; Max-Age=34560000; HttpOnly; SameSite=Lax$/,
    )
    expect(device).toContain(accountIdForEmail(anna.email))
    await tokensAfter(owner, signedIn, verifier)

    // Twelve addresses, six wrong passwords each: the sixth is refused everywhere.
    for (let i = 0; i < 12; i++) expect(await failFrom(`203.0.113.${i + 1}`, 6)).toEqual([401, 401, 401, 401, 401, 429])
    // Even an attacker sharing the owner's address (one NAT) does not slow the owner's known browser.
    expect(await failFrom('198.51.100.20', 6)).toEqual([401, 401, 401, 401, 401, 429])
    const again = await openSignIn(owner, { prompt: 'login' })
    await tokensAfter(
      owner,
      await owner.request({ method: 'POST', url: `${again.pagePath}/login`, form: { email: anna.email, password: anna.password } }),
      again.verifier,
    )

    // A forged or copied-for-another-account cookie counts for nothing: that browser is throttled as any other.
    const forger = new TestBrowser(current.app, { remoteAddress: '198.51.100.20' })
    forger.cookies.set('pactum_device', owner.cookies.get('pactum_device')!.replace(/\.[A-Za-z0-9_-]{43}$/, `.${'A'.repeat(43)}`))
    const { pagePath: forgerPage } = await openSignIn(forger)
    const forged = await forger.request({
      method: 'POST',
      url: `${forgerPage}/login`,
      form: { email: anna.email, password: anna.password },
    })
    expect(forged.statusCode).toBe(429)
    // Some eighty password checks (scrypt): past a minute when the machine is busy.
  }, 180_000)

  it('limits a known browser too, so that a stolen device cookie cannot guess on', async () => {
    current = await startServer()
    await createAccount(current.database.db, { ...anna, locale: null }, testPasswordCost)
    const owner = new TestBrowser(current.app, { remoteAddress: '198.51.100.20' })
    await signInAs(owner, anna)
    const thief = new TestBrowser(current.app, { remoteAddress: '203.0.113.50' })
    thief.cookies.set('pactum_device', owner.cookies.get('pactum_device')!)
    const { pagePath } = await openSignIn(thief)
    const statuses: number[] = []
    for (let attempt = 1; attempt <= 11; attempt++) {
      statuses.push(
        (await thief.request({ method: 'POST', url: `${pagePath}/login`, form: { email: anna.email, password: `guess ${attempt}` } }))
          .statusCode,
      )
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429])
  })

  it('throttles a distributed attacker per address and e-mails the owner once, in their language', async () => {
    current = await startServer()
    await createAccount(current.database.db, { ...anna, locale: 'sv_se' }, testPasswordCost)
    const statuses = []
    for (let i = 0; i < 8; i++) statuses.push(...(await failFrom(`203.0.113.${i + 1}`, 6)))
    expect(statuses.filter((status) => status === 429)).toHaveLength(8)
    expect(statuses.filter((status) => status === 401)).toHaveLength(40)
    // Sent after the answer (its timing must not tell that the address has an account).
    await expect.poll(async () => (await writtenMails(current.dataDir)).length, { timeout: 15_000 }).toBe(1)
    const mails = await writtenMails(current.dataDir)
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatchObject({ to: 'anna.kowalska@example.com', subject: 'Misslyckade inloggningsförsök på ditt Pactum-konto' })
    expect(mails[0]!.text).toContain('Misslyckade försök: 10. Nätverksadresser de kom från: 2.')
    expect(mails[0]!.text).toContain(`${issuer}/forgot-password?lang=sv_se`)
    // An address without an account: throttled the same, nobody e-mailed.
    for (let i = 0; i < 3; i++) {
      const stranger = new TestBrowser(current.app, { remoteAddress: `192.0.2.${i + 1}` })
      const { pagePath } = await openSignIn(stranger)
      for (let attempt = 1; attempt <= 5; attempt++) {
        await stranger.request({
          method: 'POST',
          url: `${pagePath}/login`,
          form: { email: 'nobody@example.com', password: `guess ${attempt}` },
        })
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(await writtenMails(current.dataDir)).toHaveLength(1)
    // Some eighty password checks (scrypt): past a minute when the machine is busy.
  }, 180_000)
})

describe('tokens and sessions', () => {
  it('rotates refresh tokens and treats reuse of an old one as theft', async () => {
    const { app, dataDir } = await startServer()
    const browser = new TestBrowser(app)
    const { verifier, pagePath } = await openSignIn(browser, { prompt: 'create' })
    const first = await tokensAfter(browser, await registerThroughLink(browser, dataDir, pagePath, anna), verifier)

    const rotated = await refresh(app, first.refresh_token)
    expect(rotated.statusCode, rotated.body).toBe(200)
    const second = rotated.json() as { refresh_token: string; access_token: string }
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect(decodeJwt(second.access_token)).toMatchObject({ aud: 'pactum-api', email: 'anna.kowalska@example.com', scope: 'api' })

    const reused = await refresh(app, first.refresh_token)
    expect(reused.statusCode).toBe(400)
    expect(reused.json()).toMatchObject({ error: 'invalid_grant' })
    // The whole grant is revoked, the thief's and the user's newer token alike.
    expect((await refresh(app, second.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' })
  })

  it('keeps sessions, refresh tokens and signing keys across a restart', async () => {
    const first = await startServer()
    const browser = new TestBrowser(first.app)
    const { verifier, pagePath } = await openSignIn(browser, { prompt: 'create' })
    const tokens = await tokensAfter(browser, await registerThroughLink(browser, first.dataDir, pagePath, anna), verifier)
    const jwksBefore = await jwksOf(browser)
    await first.app.close()

    const second = await startServer({ database: first.database, dataDir: first.dataDir })
    const after = new TestBrowser(second.app)
    for (const [name, value] of browser.cookies) after.cookies.set(name, value)
    expect(await jwksOf(after)).toEqual(jwksBefore)
    await verifyAccessToken(tokens.access_token, await jwksOf(after))

    const refreshed = await refresh(second.app, tokens.refresh_token)
    expect(refreshed.statusCode, refreshed.body).toBe(200)
    // The browser session survived too: no sign-in page on the next authorization.
    const { challenge } = pkcePair()
    const { callback } = await after.follow(await after.request({ url: authorizationUrl({ challenge }) }))
    expect(callback?.searchParams.get('code')).toBeTruthy()

    // The command line's copy of the key: the same key, for the owner only.
    const keyFile = signingKeyFilePath(first.dataDir)
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600)
    const key = JSON.parse(await readFile(keyFile, 'utf8'))
    expect(key.kid).toBe(jwksBefore.keys[0]?.kid)
    expect(key.d).toBeTruthy()
    expect(jwksBefore.keys[0]).not.toHaveProperty('d')
  })

  it("ends the session at once for the web app's own ID token, and returns to the registered address", async () => {
    const { app, dataDir } = await startServer()
    const browser = new TestBrowser(app)
    const { verifier, pagePath } = await openSignIn(browser, { prompt: 'create' })
    const tokens = await tokensAfter(browser, await registerThroughLink(browser, dataDir, pagePath, anna), verifier)

    const params = new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: `${testPublicUrl}/`, state: 'bye' })
    const done = await browser.request({ url: `/oidc/session/end?${params}` })
    expect(done.statusCode, done.body).toBe(303)
    expect(done.headers.location).toBe(`${testPublicUrl}/?state=bye`)
    expect(browser.cookies.has('_session')).toBe(false)
    await expectSignedOut(browser, tokens.refresh_token)
  })

  it('asks first when the request carries no ID token, with a real button', async () => {
    const { app, dataDir } = await startServer()
    const browser = new TestBrowser(app)
    const { verifier, pagePath } = await openSignIn(browser, { prompt: 'create' })
    const tokens = await tokensAfter(browser, await registerThroughLink(browser, dataDir, pagePath, anna), verifier)

    const params = new URLSearchParams({ client_id: 'pactum-app', post_logout_redirect_uri: `${testPublicUrl}/`, state: 'bye' })
    const confirm = await browser.request({ url: `/oidc/session/end?${params}` })
    expect(confirm.statusCode).toBe(200)
    expect(confirm.body).toContain('<h1>Sign out of Pactum?</h1>')
    expect(confirm.body).toContain('<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>')
    expect(confirm.body).not.toContain('<script')
    const polish = await browser.request({ url: `/oidc/session/end?${params}&lang=pl_pl` })
    expect(polish.body).toContain('<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Wyloguj się</button>')
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(polish.body)?.[1]
    expect(xsrf).toBeTruthy()
    // Asking is not signing out: until the button, the session and its tokens live.
    expect((await refresh(app, tokens.refresh_token)).statusCode).toBe(200)

    const done = await browser.request({ method: 'POST', url: '/oidc/session/end/confirm', form: { xsrf: xsrf!, logout: 'yes' } })
    expect(done.statusCode).toBe(303)
    expect(done.headers.location).toBe(`${testPublicUrl}/?state=bye`)
    await expectSignedOut(browser)
  })

  it("asks first when the ID token is another person's, as a forged sign-out link would carry", async () => {
    const { app, database } = await startServer()
    const bob = { firstName: 'Bob', lastName: 'Nowak', email: 'bob@example.com', password: 'another horse 7' }
    await createAccount(database.db, { ...anna, locale: 'en_gb' }, testPasswordCost)
    await createAccount(database.db, { ...bob, locale: 'en_gb' }, testPasswordCost)
    const annasBrowser = new TestBrowser(app)
    const annas = await signInAs(annasBrowser, anna)
    const bobs = await signInAs(new TestBrowser(app), bob)

    const params = new URLSearchParams({ id_token_hint: bobs.id_token, post_logout_redirect_uri: `${testPublicUrl}/` })
    const confirm = await annasBrowser.request({ url: `/oidc/session/end?${params}` })
    expect(confirm.statusCode).toBe(200)
    expect(confirm.body).toContain('<h1>Sign out of Pactum?</h1>')
    const rotated = await refresh(app, annas.refresh_token)
    expect(rotated.statusCode, rotated.body).toBe(200)
    const { challenge } = pkcePair()
    const { callback } = await annasBrowser.follow(await annasBrowser.request({ url: authorizationUrl({ challenge }) }))
    expect(callback?.searchParams.get('code')).toBeTruthy()
  })

  it('refuses a return address the client did not register, and keeps the session', async () => {
    const { app, dataDir } = await startServer()
    const browser = new TestBrowser(app)
    const { verifier, pagePath } = await openSignIn(browser, { prompt: 'create' })
    const tokens = await tokensAfter(browser, await registerThroughLink(browser, dataDir, pagePath, anna), verifier)

    const params = new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: 'https://elsewhere.example/' })
    const refused = await browser.request({ url: `/oidc/session/end?${params}`, headers: { accept: 'text/html' } })
    expect(refused.statusCode).toBe(400)
    expect(refused.headers.location).toBeUndefined()
    expect(refused.body).toContain('<h1>Something went wrong</h1>')
    expect((await refresh(app, tokens.refresh_token)).statusCode).toBe(200)
  })

  it('completes a logout without a session on its own, its one script allowed by hash', async () => {
    const { app } = await startServer()
    const browser = new TestBrowser(app)
    const params = new URLSearchParams({ client_id: 'pactum-app', post_logout_redirect_uri: `${testPublicUrl}/` })
    const response = await browser.request({ url: `/oidc/session/end?${params}` })
    expect(response.statusCode).toBe(200)
    expect(response.body).toContain('<script>')
    expect(response.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/)
  })

  it('shows a signed-out page when the client names no return address', async () => {
    const { app } = await startServer()
    const browser = new TestBrowser(app)
    browser.cookies.set('locale', 'it_it')
    const response = await browser.request({ url: '/oidc/session/end/success' })
    expect(response.statusCode).toBe(200)
    expect(response.body).toContain('<h1>Hai effettuato la disconnessione</h1>')
    expect(response.headers['content-security-policy']).toContain("script-src 'self'")
    expect(response.headers['cache-control']).toContain('no-store')
    expect(response.body).toContain(`href="${testPublicUrl}/"`)
  })
})

describe('e-mail address confirmation', () => {
  // Registration proves the address itself now (registration.test.ts); accounts made before that still confirm it by this link.
  it('e-mails a link to an unconfirmed account; the link confirms only on the button, and the next token says so', async () => {
    const { app, database, dataDir } = await startServer(undefined, { COMPANY_EMAIL_DOMAIN: 'example.com' })
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const browser = new TestBrowser(app)
    const tokens = await signInAs(browser, anna)
    expect(decodeJwt(tokens.access_token).email_verified).toBe(false)
    const id = accountIdForEmail(anna.email)
    await sendConfirmationLink(
      { db: database.db, mailer: app.services.mailer, now: new Date(), issuer, supportEmail: 'help@pactum.example' },
      { id, email: 'anna.kowalska@example.com', firstName: 'Anna' },
      'en_gb',
    )
    const currencies = async (accessToken: string) =>
      (await app.inject({ url: '/api/v1/me/supported_currencies', headers: { authorization: `Bearer ${accessToken}` } })).json() as string[]
    const ordinary = await currencies(tokens.access_token)

    const [mail, ...others] = await writtenMails(dataDir)
    expect(others).toEqual([])
    expect(mail).toMatchObject({ to: 'anna.kowalska@example.com', subject: 'Confirm your e-mail address for Pactum' })
    expect(mail!.text).toMatch(/^Hello Anna,\n/)
    const link = mail!.text.match(/https?:\/\/\S+/)?.[0]
    expect(link).toMatch(new RegExp(`^${issuer}/verify-email/[A-Za-z0-9_-]{43}\\?lang=en_gb$`))

    // Opening the link (as a mail scanner would) only shows the button.
    const opened = await browser.request({ url: link! })
    expect(opened.statusCode).toBe(200)
    expect(opened.body).toContain('<h1>Confirm your e-mail address</h1>')
    expect(opened.body).toMatch(/<form method="post" action="\/oidc\/verify-email\/[A-Za-z0-9_-]{43}\?lang=en_gb">/)
    const afterOpening = (await refresh(app, tokens.refresh_token)).json() as { access_token: string; refresh_token: string }
    expect(decodeJwt(afterOpening.access_token).email_verified).toBe(false)

    const confirmed = await browser.request({ method: 'POST', url: link! })
    expect(confirmed.statusCode).toBe(200)
    expect(confirmed.body).toContain('<h1>E-mail address confirmed</h1>')
    expect(confirmed.body).toContain(`href="${testPublicUrl}/"`)
    // A second click, or opening it again, reads the same.
    expect((await browser.request({ method: 'POST', url: link! })).body).toContain('<h1>E-mail address confirmed</h1>')
    expect((await browser.request({ url: link! })).body).toContain('<h1>E-mail address confirmed</h1>')

    // The next tokens carry it, and the company domain's privileges come with them.
    const afterConfirming = (await refresh(app, afterOpening.refresh_token)).json() as { access_token: string; id_token: string }
    expect(decodeJwt(afterConfirming.access_token).email_verified).toBe(true)
    expect(decodeJwt(afterConfirming.id_token).email_verified).toBe(true)
    const privileged = await currencies(afterConfirming.access_token)
    expect(privileged.length).toBeGreaterThan(ordinary.length)
    expect(privileged).toEqual(expect.arrayContaining(ordinary))
  })

  it('sends the link again from the account page, in the interface language, until the address is confirmed', async () => {
    const { app, database, dataDir } = await startServer()
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const browser = new TestBrowser(app)
    const tokens = await signInAs(browser, anna)
    const resend = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/me/email_confirmation',
        headers: { authorization: `Bearer ${tokens.access_token}`, 'accept-language': 'pl-PL' },
      })

    const sent = await resend()
    expect(sent.statusCode, sent.body).toBe(202)
    expect(sent.json()).toEqual({ email: 'anna.kowalska@example.com' })
    const mails = await writtenMails(dataDir)
    expect(mails.map((mail) => mail.subject)).toEqual(['Potwierdź swój adres e-mail w Pactum'])
    const polish = mails.find((mail) => mail.subject.startsWith('Potwierdź'))!
    const link = polish.text.match(/https?:\/\/\S+/)![0]
    expect((await browser.request({ method: 'POST', url: link })).body).toContain('<h1>Adres e-mail potwierdzony</h1>')

    const again = await resend()
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'email_already_confirmed' })
    expect(await writtenMails(dataDir)).toHaveLength(1)
    // Three an hour per person.
    await resend()
    const limited = await resend()
    expect(limited.statusCode).toBe(429)
    expect(limited.json()).toMatchObject({ code: 'rate_limited' })
  })
})

describe('an address someone proved before (issue 30)', () => {
  async function provedByOperator(app: Awaited<ReturnType<typeof startServer>>['app'], email: string) {
    // The operator's command-line token vouches for the address (cli.ts), and the API keeps that proof.
    const token = await mintAccessToken({
      privateSigningKey: app.embeddedSigningKey!,
      issuer,
      audience: 'pactum-api',
      clientId: 'pactum-app',
      email,
      emailVerified: true,
    })
    expect((await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200)
  }

  it('an account from before that never confirmed it is not signed in: the page asks to confirm first, and the link then lets the owner in', async () => {
    const { app, database, dataDir } = await startServer()
    await provedByOperator(app, anna.email)
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const browser = new TestBrowser(app)
    const { pagePath } = await openSignIn(browser)
    const signIn = await browser.request({ method: 'POST', url: `${pagePath}/login`, form: { email: anna.email, password: anna.password } })
    expect(signIn.statusCode).toBe(403)
    expect(signIn.body).toContain('<h1>Confirm your e-mail address first</h1>')
    expect(signIn.body).toContain('anna.kowalska@example.com')
    const mails = await writtenMails(dataDir)
    expect(mails.map((mail) => mail.subject)).toEqual(['Confirm your e-mail address for Pactum'])

    // Signing in again says the same, and sends no second mail within ten minutes.
    const { pagePath: again } = await openSignIn(browser)
    const second = await browser.request({ method: 'POST', url: `${again}/login`, form: { email: anna.email, password: anna.password } })
    expect(second.statusCode).toBe(403)
    expect(await writtenMails(dataDir)).toHaveLength(1)

    const link = mails[0]!.text.match(/https?:\/\/\S+/)![0]
    expect((await browser.request({ method: 'POST', url: link })).body).toContain('<h1>E-mail address confirmed</h1>')
    const tokens = await signInAs(browser, anna)
    expect(decodeJwt(tokens.access_token).email_verified).toBe(true)
    expect((await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${tokens.access_token}` } })).statusCode).toBe(200)
  })

  it('is signed in by a registration: its e-mailed link is the proof', async () => {
    const { app, dataDir } = await startServer()
    await provedByOperator(app, anna.email)
    const browser = new TestBrowser(app)
    const { verifier, pagePath } = await openSignIn(browser, { prompt: 'create' })
    const tokens = await tokensAfter(browser, await registerThroughLink(browser, dataDir, pagePath, anna), verifier)
    expect(decodeJwt(tokens.access_token).email_verified).toBe(true)
    expect((await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${tokens.access_token}` } })).statusCode).toBe(200)
  })

  it('signs in an unconfirmed account from before as before when nobody proved its address', async () => {
    const { app, database } = await startServer()
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const tokens = await signInAs(new TestBrowser(app), anna)
    expect(decodeJwt(tokens.access_token).email_verified).toBe(false)
    expect((await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${tokens.access_token}` } })).statusCode).toBe(200)
    // Later sign-ins too (the user row it made was never proved).
    expect(decodeJwt((await signInAs(new TestBrowser(app), anna)).access_token).email_verified).toBe(false)
  })
})

describe('password reset', () => {
  const resetLinkPattern = new RegExp(`${issuer}/reset-password/[A-Za-z0-9_-]{43}\\?lang=en_gb`)
  async function resetMails(dataDir: string, count: number) {
    // The link is e-mailed after the answer (the same answer, as fast, with or without an account).
    await expect.poll(async () => (await writtenMails(dataDir)).length, { timeout: 15_000 }).toBe(count)
    return writtenMails(dataDir)
  }
  const linkIn = (mail: { text: string } | undefined) => mail!.text.match(resetLinkPattern)![0]

  it('from the sign-in page to a new password: every session ends, the old password is refused, the new one works', async () => {
    const { app, database, dataDir } = await startServer()
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const laptop = new TestBrowser(app)
    const laptopTokens = await signInAs(laptop, anna)
    const phone = new TestBrowser(app, { remoteAddress: '198.51.100.30' })
    const phoneTokens = await signInAs(phone, anna)

    const visitor = new TestBrowser(app)
    const { page } = await openSignIn(visitor)
    const forgotHref = page.body.match(/<a href="([^"]+)">Forgot your password\?<\/a>/)?.[1]?.replace(/&amp;/g, '&')
    expect(forgotHref).toMatch(/^\/oidc\/forgot-password\?lang=en_gb&uid=[A-Za-z0-9_-]+$/)
    const forgot = await visitor.request({ url: forgotHref! })
    expect(forgot.statusCode).toBe(200)
    expect(forgot.body).toContain('<h1>Forgot your password?</h1>')
    expect(forgot.body.match(/<h1>/g)).toHaveLength(1)
    expect(forgot.body).toMatch(/<label for="email">E-mail<\/label>/)
    expect(forgot.body).toContain('Back to sign in')

    const empty = await visitor.request({ method: 'POST', url: forgotHref!, form: { email: 'not an address' } })
    expect(empty.statusCode).toBe(400)
    expect(empty.body).toContain('aria-describedby="email-error" aria-invalid="true"')
    expect(empty.body).toContain('<p class="error" id="email-error">Enter a valid e-mail address, like name@example.com.</p>')

    // The same answer whether or not the address has an account.
    const known = await visitor.request({ method: 'POST', url: forgotHref!, form: { email: anna.email } })
    const unknown = await visitor.request({ method: 'POST', url: forgotHref!, form: { email: 'nobody@example.com' } })
    expect(known.statusCode).toBe(200)
    expect(unknown.statusCode).toBe(200)
    expect(known.body).toContain('If there is a Pactum account with the address anna.kowalska@example.com, we have sent it a link')
    expect(unknown.body.replace('nobody@example.com', 'anna.kowalska@example.com')).toBe(known.body)

    const [mail, ...others] = await resetMails(dataDir, 1)
    expect(others).toEqual([])
    expect(mail).toMatchObject({ to: 'anna.kowalska@example.com', subject: 'Reset your Pactum password' })
    expect(mail!.text).toContain('within 30 minutes')
    const link = linkIn(mail)
    // Only the token's SHA-256 is stored.
    const token = new URL(link).pathname.split('/').pop()!
    const stored = await database.db.selectFrom('password_reset_tokens').select('token_hash').execute()
    expect(stored).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }])

    const opened = await visitor.request({ url: link })
    expect(opened.statusCode).toBe(200)
    expect(opened.body).toContain('<h1>Choose a new password</h1>')
    expect(opened.body).toMatch(/<label for="password">New password<\/label>/)
    expect(opened.body).toContain('autocomplete="new-password"')
    const weak = await visitor.request({ method: 'POST', url: link, form: { password: 'short' } })
    expect(weak.statusCode).toBe(400)
    expect(weak.body).toContain('aria-describedby="password-hint password-error" aria-invalid="true"')
    expect(weak.body).toContain('<li>Use at least 10 characters.</li>')
    expect(weak.body).toContain('<li>Include at least one digit.</li>')

    const newPassword = 'battery staple 77'
    const done = await visitor.request({ method: 'POST', url: link, form: { password: newPassword } })
    expect(done.statusCode).toBe(200)
    expect(done.body).toContain('<h1>Password changed</h1>')
    expect(done.body).toContain(`<a href="${testPublicUrl}/">Sign in</a>`)

    // Signed out everywhere: both browsers' refresh tokens and sessions are gone.
    await expectSignedOut(laptop, laptopTokens.refresh_token)
    await expectSignedOut(phone, phoneTokens.refresh_token)
    // The link works once; the address is proven by it.
    const reused = await visitor.request({ method: 'POST', url: link, form: { password: 'another one 99' } })
    expect(reused.statusCode).toBe(410)
    expect(reused.body).toContain('<h1>This link is not valid</h1>')
    expect((await visitor.request({ url: link })).statusCode).toBe(410)
    const account = await database.db.selectFrom('accounts').select('email_verified_at').executeTakeFirstOrThrow()
    expect(account.email_verified_at).toBeInstanceOf(Date)

    const { pagePath } = await openSignIn(laptop)
    const old = await laptop.request({ method: 'POST', url: `${pagePath}/login`, form: { email: anna.email, password: anna.password } })
    expect(old.statusCode).toBe(401)
    await signInAs(new TestBrowser(app), { email: anna.email, password: newPassword })
  })

  it('refuses a link after 30 minutes, a made-up one, and one sent before the address changed', async () => {
    let now = new Date()
    const { app, database, dataDir } = await startServer(undefined, {}, { now: () => now })
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const browser = new TestBrowser(app)
    await browser.request({ method: 'POST', url: '/oidc/forgot-password?lang=en_gb', form: { email: anna.email } })
    const link = linkIn((await resetMails(dataDir, 1))[0])
    now = new Date(now.getTime() + 30 * 60_000 + 1000)
    const expired = await browser.request({ url: link })
    expect(expired.statusCode).toBe(410)
    expect(expired.body).toContain('<h1>This link has expired</h1>')
    expect(expired.body).toContain('href="/oidc/forgot-password?lang=en_gb">Ask for a new link</a>')
    expect((await browser.request({ method: 'POST', url: link, form: { password: 'battery staple 77' } })).statusCode).toBe(410)

    const madeUp = await browser.request({ url: `/oidc/reset-password/${'A'.repeat(43)}` })
    expect(madeUp.statusCode).toBe(404)
    await browser.request({ method: 'POST', url: '/oidc/forgot-password?lang=en_gb', form: { email: anna.email } })
    const fresh = linkIn((await resetMails(dataDir, 2))[1])
    await database.db.updateTable('accounts').set({ email: 'anna.new@example.com' }).execute()
    expect((await browser.request({ method: 'POST', url: fresh, form: { password: 'battery staple 77' } })).statusCode).toBe(404)
  })

  it('e-mails an address three links an hour and answers a client address ten requests an hour', async () => {
    const { app, database, dataDir } = await startServer()
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const browser = new TestBrowser(app)
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      statuses.push((await browser.request({ method: 'POST', url: '/oidc/forgot-password', form: { email: anna.email } })).statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    await resetMails(dataDir, 3)
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await browser.request({ method: 'POST', url: '/oidc/forgot-password', form: { email: `someone${i}@example.com` } })).statusCode,
      )
    }
    const limited = await browser.request({ method: 'POST', url: '/oidc/forgot-password', form: { email: anna.email } })
    expect(limited.statusCode).toBe(429)
    // Another client address is not affected; the address's own limit still holds.
    const other = new TestBrowser(app, { remoteAddress: '198.51.100.40' })
    expect((await other.request({ method: 'POST', url: '/oidc/forgot-password', form: { email: anna.email } })).statusCode).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(await writtenMails(dataDir)).toHaveLength(3)
  })

  it('clears the failed sign-ins counted against the account', async () => {
    const { app, database, dataDir } = await startServer()
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const browser = new TestBrowser(app)
    const { pagePath } = await openSignIn(browser)
    for (let attempt = 1; attempt <= 5; attempt++) {
      await browser.request({ method: 'POST', url: `${pagePath}/login`, form: { email: anna.email, password: `guess ${attempt}` } })
    }
    const refused = await browser.request({
      method: 'POST',
      url: `${pagePath}/login`,
      form: { email: anna.email, password: anna.password },
    })
    expect(refused.statusCode).toBe(429)
    await browser.request({ method: 'POST', url: '/oidc/forgot-password', form: { email: anna.email } })
    const link = linkIn((await resetMails(dataDir, 1))[0])
    expect((await browser.request({ method: 'POST', url: link, form: { password: 'battery staple 77' } })).statusCode).toBe(200)
    await signInAs(browser, { email: anna.email, password: 'battery staple 77' })
  })
})

describe('password change from the account page', () => {
  const change = (
    app: Awaited<ReturnType<typeof startServer>>['app'],
    accessToken: string,
    body: Record<string, string>,
    remoteAddress = '127.0.0.1',
  ) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/me/password',
      headers: { authorization: `Bearer ${accessToken}` },
      payload: body,
      remoteAddress,
    })

  it('checks the current password, keeps this session and ends every other', async () => {
    const { app, database } = await startServer()
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const laptop = new TestBrowser(app)
    const laptopTokens = await signInAs(laptop, anna)
    const phone = new TestBrowser(app, { remoteAddress: '198.51.100.30' })
    const phoneTokens = await signInAs(phone, anna)

    const wrong = await change(app, laptopTokens.access_token, { current_password: 'not my password 1', new_password: 'battery staple 77' })
    expect(wrong.statusCode).toBe(403)
    expect(wrong.json()).toMatchObject({ code: 'incorrect_password' })
    const weak = await change(app, laptopTokens.access_token, { current_password: anna.password, new_password: 'short' })
    expect(weak.statusCode).toBe(400)
    expect(weak.json()).toMatchObject({ code: 'validation_failed' })
    expect(JSON.stringify(weak.json())).toContain('too_short')

    const changed = await change(app, laptopTokens.access_token, { current_password: anna.password, new_password: 'battery staple 77' })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json()).toEqual({ signed_out_sessions: 1 })
    await expectSignedOut(phone, phoneTokens.refresh_token)
    // This browser stays signed in: its refresh token still works, and it needs no sign-in page.
    expect((await refresh(app, laptopTokens.refresh_token)).statusCode).toBe(200)
    const silent = await laptop.request({ url: authorizationUrl({ challenge: pkcePair().challenge, prompt: 'none' }) })
    expect((await laptop.follow(silent)).callback?.searchParams.get('code')).toBeTruthy()

    const { pagePath } = await openSignIn(phone)
    expect(
      (await phone.request({ method: 'POST', url: `${pagePath}/login`, form: { email: anna.email, password: anna.password } })).statusCode,
    ).toBe(401)
    await signInAs(new TestBrowser(app), { email: anna.email, password: 'battery staple 77' })
  })

  it('throttles guesses of the current password as a sign-in from that address is', async () => {
    const { app, database } = await startServer()
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const tokens = await signInAs(new TestBrowser(app), anna)
    const statuses: number[] = []
    for (let attempt = 1; attempt <= 5; attempt++) {
      statuses.push(
        (
          await change(
            app,
            tokens.access_token,
            { current_password: `guess number ${attempt}`, new_password: 'battery staple 77' },
            '203.0.113.5',
          )
        ).statusCode,
      )
    }
    const refused = await change(
      app,
      tokens.access_token,
      { current_password: anna.password, new_password: 'battery staple 77' },
      '203.0.113.5',
    )
    expect(statuses).toEqual([403, 403, 403, 403, 403])
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toMatchObject({ code: 'rate_limited', details: { reason: 'password_attempts' } })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800)
  })
})

describe('signed-in sessions on the account page', () => {
  it('lists the browsers signed in, marks this one, and signs out every other', async () => {
    const { app, database } = await startServer()
    await createAccount(database.db, { ...anna, locale: null }, testPasswordCost)
    const phone = new TestBrowser(app, { remoteAddress: '198.51.100.30' })
    const phoneTokens = await signInAs(phone, anna)
    const laptop = new TestBrowser(app)
    const laptopTokens = await signInAs(laptop, anna)
    const call = (method: 'GET' | 'POST', url: string) =>
      app.inject({ method, url, headers: { authorization: `Bearer ${laptopTokens.access_token}` } })

    const listed = await call('GET', '/api/v1/me/sessions')
    expect(listed.statusCode, listed.body).toBe(200)
    const sessions = listed.json() as Array<{ id: string; signed_in_at: string; last_used_at: string; current: boolean }>
    expect(sessions).toHaveLength(2)
    expect(sessions.map((session) => session.current).sort()).toEqual([false, true])
    for (const session of sessions) {
      expect(session.id).toMatch(/^[A-Za-z0-9_-]{22}$/)
      expect(Date.parse(session.last_used_at)).toBeGreaterThanOrEqual(Date.parse(session.signed_in_at))
    }
    // Not the session cookie's value: a list must not hand out what signs a browser in.
    const stored = await database.db.selectFrom('oidc_payloads').select('id').where('model', '=', 'Session').execute()
    expect(sessions.map((session) => session.id)).not.toContain(stored[0]!.id)

    const ended = await call('POST', '/api/v1/me/sessions/sign_out_others')
    expect(ended.json()).toEqual({ signed_out_sessions: 1 })
    await expectSignedOut(phone, phoneTokens.refresh_token)
    expect((await refresh(app, laptopTokens.refresh_token)).statusCode).toBe(200)
    const after = (await call('GET', '/api/v1/me/sessions')).json() as Array<{ current: boolean }>
    expect(after).toHaveLength(1)
    expect(after[0]!.current).toBe(true)
  })
})

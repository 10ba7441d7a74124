import { decodeJwt } from 'jose'
import { afterEach, describe, expect, it } from 'vitest'
import type { Clock } from '../../../clock.ts'
import { addPasskey } from '../../../testing/software-authenticator.ts'
import { createTestApp, type TestApp } from '../../../testing/test-app.ts'
import { testPasswordCost } from '../../../testing/test-password-cost.ts'
import { writtenMails } from '../../../testing/written-mails.ts'
import { accountIdForEmail } from './account-id.ts'
import { createAccount } from './accounts.ts'
import { maxWrongCodes } from './second-factor.ts'
import { authorizationUrl, interactionPath, pkcePair, refresh, TestBrowser, testPublicUrl, tokensAfter } from './test-browser.ts'
import { totpCodeAt } from './totp.ts'

/**
 * Issue 30: an authenticator app or a passkey as the second factor of the
 * embedded sign-in, set up from the Account page's API; the sign-in's `amr`
 * in the access token; and ADMIN_REQUIRE_MFA reading it.
 */
let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

const password = 'correct horse 42'
const rp = { id: new URL(testPublicUrl).hostname, origin: testPublicUrl }

/** A clock the test moves by hand: TOTP codes belong to 30-second steps. */
function handClock(start = new Date('2026-11-28T10:00:05Z')): Clock & { move(seconds: number): void } {
  let now = start
  return {
    now: () => now,
    move: (seconds) => {
      now = new Date(now.getTime() + seconds * 1000)
    },
  }
}

async function start(env: Record<string, string> = {}) {
  const clock = handClock()
  testApp = await createTestApp({ clock, env })
  return { app: testApp.app, db: testApp.database.db, clock }
}

async function account(email: string, options: { confirmed?: boolean } = {}) {
  const { db } = testApp!.database
  await createAccount(db, { email, password, firstName: 'Anna', lastName: 'Nowak', locale: null }, testPasswordCost)
  if (options.confirmed) await db.updateTable('accounts').set({ email_verified_at: new Date() }).where('email', '=', email).execute()
  return { authorization: `Bearer ${await testApp!.tokenFor(email, { emailVerified: options.confirmed ?? false })}` }
}

/** Sets up the authenticator app through the API; returns its secret. */
async function withAuthenticatorApp(headers: { authorization: string }, clock: Clock): Promise<string> {
  const { app } = testApp!
  const setup = await app.inject({ method: 'POST', url: '/api/v1/me/totp/setup', headers, payload: { current_password: password } })
  expect(setup.statusCode, setup.body).toBe(200)
  const { secret, otpauth_uri, qr_code } = setup.json() as { secret: string; otpauth_uri: string; qr_code: string }
  expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/Pactum:.+\?.*secret=/)
  expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/)
  const confirmed = await app.inject({
    method: 'POST',
    url: '/api/v1/me/totp',
    headers,
    payload: { code: totpCodeAt(secret, clock.now()) },
  })
  expect(confirmed.statusCode, confirmed.body).toBe(201)
  expect(confirmed.json()).toMatchObject({ enabled: true, since: expect.any(String) })
  return secret
}

async function signInWithPassword(browser: TestBrowser, email: string) {
  const pkce = pkcePair()
  const pagePath = interactionPath(await browser.request({ url: authorizationUrl({ challenge: pkce.challenge }) }))
  const posted = await browser.request({ method: 'POST', url: `${pagePath}/login`, form: { email, password } })
  return { ...pkce, pagePath, posted }
}

describe('an authenticator app as the second factor', () => {
  it('asks for a code after the password, and the token says both were given', async () => {
    const { app, clock } = await start()
    const secret = await withAuthenticatorApp(await account('anna@example.com'), clock)
    clock.move(30)
    const browser = new TestBrowser(app)
    const { pagePath, posted, verifier } = await signInWithPassword(browser, 'anna@example.com')
    expect(posted.statusCode).toBe(200)
    expect(posted.body).toContain('<h1>One more step</h1>')
    expect(posted.body).toContain('autocomplete="one-time-code"')
    expect(posted.body).toContain('inputmode="numeric"')

    // The page opened again (a reload, another language) still asks for the code.
    const reopened = await browser.request({ url: `${pagePath}?lang=pl_pl` })
    expect(reopened.body).toContain('Jeszcze jeden krok')
    expect((await browser.request({ url: `${pagePath}?lang=en_gb` })).body).toContain('<h1>One more step</h1>')

    const empty = await browser.request({ method: 'POST', url: `${pagePath}/second-factor`, form: { code: '' } })
    expect(empty.statusCode).toBe(400)
    expect(empty.body).toContain('Enter the 6-digit code from your app.')
    const wrong = await browser.request({ method: 'POST', url: `${pagePath}/second-factor`, form: { code: '000000' } })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.body).toContain('That code is not right')

    const right = await browser.request({
      method: 'POST',
      url: `${pagePath}/second-factor`,
      form: { code: totpCodeAt(secret, clock.now()) },
    })
    const tokens = await tokensAfter(browser, right, verifier)
    const claims = decodeJwt(tokens.access_token)
    expect(claims.sub).toBe(accountIdForEmail('anna@example.com'))
    expect(claims.amr).toEqual(['mfa', 'otp', 'pwd'])
    // A refreshed token still says how the person signed in.
    const refreshed = (await refresh(app, tokens.refresh_token)).json() as { access_token: string }
    expect(decodeJwt(refreshed.access_token).amr).toEqual(['mfa', 'otp', 'pwd'])
  })

  it('takes a code once, and a code of a step already used not at all', async () => {
    const { app, clock } = await start()
    const secret = await withAuthenticatorApp(await account('anna@example.com'), clock)
    // The code that confirmed the set-up is used.
    const browser = new TestBrowser(app)
    const { pagePath } = await signInWithPassword(browser, 'anna@example.com')
    const reused = await browser.request({
      method: 'POST',
      url: `${pagePath}/second-factor`,
      form: { code: totpCodeAt(secret, clock.now()) },
    })
    expect(reused.statusCode).toBe(401)

    clock.move(30)
    const code = totpCodeAt(secret, clock.now())
    expect((await browser.request({ method: 'POST', url: `${pagePath}/second-factor`, form: { code } })).statusCode).toBe(303)
    const other = new TestBrowser(app)
    const again = await signInWithPassword(other, 'anna@example.com')
    expect((await other.request({ method: 'POST', url: `${again.pagePath}/second-factor`, form: { code } })).statusCode).toBe(401)
    // A code from two steps ago or ahead is outside the window.
    clock.move(30)
    expect(
      (
        await other.request({
          method: 'POST',
          url: `${again.pagePath}/second-factor`,
          form: { code: totpCodeAt(secret, new Date(clock.now().getTime() + 90_000)) },
        })
      ).statusCode,
    ).toBe(401)
  })

  it(`ends the step after ${maxWrongCodes} wrong codes: the password again`, async () => {
    const { app, clock } = await start()
    const secret = await withAuthenticatorApp(await account('anna@example.com'), clock)
    clock.move(30)
    const browser = new TestBrowser(app)
    const { pagePath } = await signInWithPassword(browser, 'anna@example.com')
    for (let attempt = 1; attempt < maxWrongCodes; attempt++) {
      expect((await browser.request({ method: 'POST', url: `${pagePath}/second-factor`, form: { code: '123456' } })).statusCode).toBe(401)
    }
    const last = await browser.request({ method: 'POST', url: `${pagePath}/second-factor`, form: { code: '123456' } })
    expect(last.body).toContain('Too many wrong codes. Sign in again with your password.')
    expect(last.body).toContain('name="password"')
    // Even the right code no longer finishes that step.
    const late = await browser.request({
      method: 'POST',
      url: `${pagePath}/second-factor`,
      form: { code: totpCodeAt(secret, clock.now()) },
    })
    expect(late.body).toContain('This sign-in took too long.')
  })

  it('starts again from the password on "Start again"', async () => {
    const { app, clock } = await start()
    await withAuthenticatorApp(await account('anna@example.com'), clock)
    const browser = new TestBrowser(app)
    const { pagePath, posted } = await signInWithPassword(browser, 'anna@example.com')
    expect(posted.body).toContain(`href="${pagePath}/second-factor/start-over"`)
    const startOver = await browser.request({ url: `${pagePath}/second-factor/start-over` })
    expect(startOver.statusCode).toBe(303)
    const signIn = await browser.request({ url: pagePath })
    expect(signIn.body).toContain('name="password"')
    expect((await browser.request({ method: 'POST', url: `${pagePath}/second-factor`, form: { code: '123456' } })).body).toContain(
      'This sign-in took too long.',
    )
  })

  it('lets an account without a second factor in with the password alone, and says so in the token', async () => {
    const { app } = await start()
    await account('ben@example.com')
    const browser = new TestBrowser(app)
    const { posted, verifier } = await signInWithPassword(browser, 'ben@example.com')
    expect(decodeJwt((await tokensAfter(browser, posted, verifier)).access_token).amr).toEqual(['pwd'])
  })

  it('is set up and removed only with the password, and confirmed only with a right code', async () => {
    const { app, clock } = await start()
    const headers = await account('anna@example.com')
    expect((await app.inject({ url: '/api/v1/me/totp', headers })).json()).toEqual({ enabled: false, since: null })
    const badPassword = await app.inject({
      method: 'POST',
      url: '/api/v1/me/totp/setup',
      headers,
      payload: { current_password: 'wrong horse 1' },
    })
    expect(badPassword.json()).toMatchObject({ code: 'incorrect_password' })
    const notStarted = await app.inject({ method: 'POST', url: '/api/v1/me/totp', headers, payload: { code: '123456' } })
    expect(notStarted.json()).toMatchObject({ code: 'totp_not_pending' })

    const setup = (
      await app.inject({ method: 'POST', url: '/api/v1/me/totp/setup', headers, payload: { current_password: password } })
    ).json() as { secret: string }
    const wrongCode = await app.inject({ method: 'POST', url: '/api/v1/me/totp', headers, payload: { code: '000000' } })
    expect(wrongCode.statusCode).toBe(400)
    expect(wrongCode.json()).toMatchObject({ code: 'incorrect_code', details: { field: 'body.code' } })
    const notDigits = await app.inject({ method: 'POST', url: '/api/v1/me/totp', headers, payload: { code: '12ab56' } })
    expect(notDigits.json()).toMatchObject({ code: 'validation_failed' })
    // An unconfirmed set-up does not change the sign-in.
    const before = new TestBrowser(app)
    expect((await signInWithPassword(before, 'anna@example.com')).posted.statusCode).toBe(303)

    const confirmed = await app.inject({
      method: 'POST',
      url: '/api/v1/me/totp',
      headers,
      payload: { code: totpCodeAt(setup.secret, clock.now()).replace(/^(\d{3})/, '$1 ') },
    })
    expect(confirmed.statusCode, confirmed.body).toBe(201)
    expect((await app.inject({ url: '/api/v1/me/totp', headers })).json()).toMatchObject({ enabled: true })
    const twice = await app.inject({ method: 'POST', url: '/api/v1/me/totp/setup', headers, payload: { current_password: password } })
    expect(twice.json()).toMatchObject({ code: 'totp_already_enabled' })

    expect(
      (await app.inject({ method: 'POST', url: '/api/v1/me/totp/remove', headers, payload: { current_password: 'wrong horse 1' } }))
        .statusCode,
    ).toBe(403)
    expect(
      (await app.inject({ method: 'POST', url: '/api/v1/me/totp/remove', headers, payload: { current_password: password } })).statusCode,
    ).toBe(204)
    const after = new TestBrowser(app)
    expect((await signInWithPassword(after, 'anna@example.com')).posted.statusCode).toBe(303)

    // The owner is told at the account's address, each time a way in came or went.
    const notices = (await writtenMails(testApp!.dataDir)).filter(
      (mail) => mail.subject === 'A sign-in setting of your Pactum account changed',
    )
    expect(notices.map((mail) => mail.to)).toEqual(['anna@example.com', 'anna@example.com'])
    // Both written at the same moment of the test's clock: their files' order is not theirs.
    expect(notices.map((mail) => mail.text)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('An authenticator app was set up for your Pactum account.'),
        expect.stringContaining('The authenticator app of your Pactum account was removed.'),
      ]),
    )
  })

  it('is for accounts of the embedded sign-in only', async () => {
    await start()
    const stranger = { authorization: `Bearer ${await testApp!.tokenFor('nobody@example.com')}` }
    const refused = await testApp!.app.inject({ url: '/api/v1/me/totp', headers: stranger })
    expect(refused.json()).toMatchObject({ code: 'second_factor_unavailable' })
  })
})

describe('a passkey as the second factor', () => {
  async function withPasskey(email: string) {
    const headers = await account(email)
    return addPasskey(testApp!.app, headers, password, rp)
  }

  it('offers only this account’s passkeys after the password, and refuses another account’s', async () => {
    const { app } = await start()
    const anna = await withPasskey('anna@example.com')
    const ben = await withPasskey('ben@example.com')
    const browser = new TestBrowser(app)
    const { pagePath, posted, verifier } = await signInWithPassword(browser, 'anna@example.com')
    expect(posted.statusCode).toBe(200)
    expect(posted.body).toContain('Use your passkey to finish signing in.')
    expect(posted.body).not.toContain('name="code"')

    const options = (await browser.request({ method: 'POST', url: `${pagePath}/second-factor/passkey/options` })).json() as {
      challenge: string
      allowCredentials: { id: string }[]
    }
    expect(options.allowCredentials.map((credential) => credential.id)).toEqual([anna.credentialId.toString('base64url')])
    const wrongPerson = await browser.request({
      method: 'POST',
      url: `${pagePath}/second-factor/passkey`,
      form: { credential: JSON.stringify(ben.get(options)) },
    })
    expect(wrongPerson.statusCode).toBe(401)
    expect(wrongPerson.body).toContain('That passkey could not finish the sign-in.')

    const again = (await browser.request({ method: 'POST', url: `${pagePath}/second-factor/passkey/options` })).json()
    const signedIn = await browser.request({
      method: 'POST',
      url: `${pagePath}/second-factor/passkey`,
      form: { credential: JSON.stringify(anna.get(again)) },
    })
    expect(decodeJwt((await tokensAfter(browser, signedIn, verifier)).access_token).amr).toEqual(['mfa', 'pop', 'pwd'])

    const notices = (await writtenMails(testApp!.dataDir)).filter((mail) => mail.to === 'anna@example.com')
    expect(notices.map((mail) => mail.text)).toEqual([expect.stringContaining('A passkey named “Phone” was added to your Pactum account.')])
  })

  it('signs in alone, without the password: two factors when the authenticator checked the person, one when it was only touched', async () => {
    const { app } = await start()
    const anna = await withPasskey('anna@example.com')
    for (const [userVerified, amr] of [
      [true, ['mfa', 'pop', 'user']],
      [false, ['pop']],
    ] as const) {
      const browser = new TestBrowser(app)
      const pkce = pkcePair()
      const pagePath = interactionPath(await browser.request({ url: authorizationUrl({ challenge: pkce.challenge }) }))
      const options = (await browser.request({ method: 'POST', url: `${pagePath}/passkey/options` })).json()
      const posted = await browser.request({
        method: 'POST',
        url: `${pagePath}/passkey`,
        form: { credential: JSON.stringify(anna.get(options, { userVerified })) },
      })
      expect(decodeJwt((await tokensAfter(browser, posted, pkce.verifier)).access_token).amr).toEqual(amr)
    }
  })
})

describe('ADMIN_REQUIRE_MFA on the embedded sign-in', () => {
  it('makes an ADMIN_EMAILS address admin only after a sign-in with its second factor', async () => {
    const { app, clock } = await start({ ADMIN_EMAILS: 'ops@example.com' })
    const headers = await account('ops@example.com', { confirmed: true })
    const signInAndAskMe = async (
      second?: (browser: TestBrowser, pagePath: string) => Promise<Awaited<ReturnType<TestBrowser['request']>>>,
    ) => {
      const browser = new TestBrowser(app)
      const { pagePath, posted, verifier } = await signInWithPassword(browser, 'ops@example.com')
      const finished = second ? await second(browser, pagePath) : posted
      const tokens = await tokensAfter(browser, finished, verifier)
      return (await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${tokens.access_token}` } })).json() as {
        roles: string[]
        pending_role_needs: string[]
      }
    }
    expect(await signInAndAskMe()).toMatchObject({ roles: [], pending_role_needs: ['second_factor'] })
    const secret = await withAuthenticatorApp(headers, clock)
    clock.move(30)
    const me = await signInAndAskMe((browser, pagePath) =>
      browser.request({ method: 'POST', url: `${pagePath}/second-factor`, form: { code: totpCodeAt(secret, clock.now()) } }),
    )
    expect(me).toMatchObject({ roles: ['admin'], pending_role_needs: [] })
  })
})

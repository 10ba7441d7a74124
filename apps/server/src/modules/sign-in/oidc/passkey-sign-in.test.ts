import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { addPasskey, SoftwareAuthenticator } from '../../../testing/software-authenticator.ts'
import { appPerTest } from '../../../testing/app-per-test.ts'
import { accountIdForEmail } from './account-id.ts'
import { createAccount } from './accounts.ts'
import { authorizationUrl, exchangeCode, interactionPath, pkcePair, TestBrowser, testPublicUrl } from './test-browser.ts'
import { testPasswordCost } from '../../../testing/test-password-cost.ts'

/** Issue 30: signing in with a passkey instead of the password, on the embedded sign-in page. */
const testApps = appPerTest()

const password = 'correct horse 42'
const rp = { id: new URL(testPublicUrl).hostname, origin: testPublicUrl }

/** Anna's account with a passkey added from the Account page's API. */
async function withPasskey() {
  const testApp = await testApps.open()
  const { app, database } = testApp
  await createAccount(
    database.db,
    { email: 'anna@example.com', password, firstName: 'Anna', lastName: 'Nowak', locale: null },
    testPasswordCost,
  )
  const authorization = { authorization: `Bearer ${await testApp.tokenFor('anna@example.com')}` }
  const authenticator = await addPasskey(app, authorization, password, rp)
  return { app, db: database.db, authenticator }
}

async function openSignIn(browser: TestBrowser) {
  const pkce = pkcePair()
  const pagePath = interactionPath(await browser.request({ url: authorizationUrl({ challenge: pkce.challenge }) }))
  const page = await browser.request({ url: pagePath })
  return { ...pkce, pagePath, page }
}

async function passkeyOptions(browser: TestBrowser, pagePath: string) {
  const response = await browser.request({ method: 'POST', url: `${pagePath}/passkey/options` })
  expect(response.statusCode).toBe(200)
  expect(response.headers['cache-control']).toContain('no-store')
  return response.json() as { challenge: string; rpId: string; allowCredentials?: unknown[] }
}

describe('signing in with a passkey', () => {
  it('offers the button with its scripts, and signs the passkey’s account in without a password', async () => {
    const { app, db, authenticator } = await withPasskey()
    const browser = new TestBrowser(app)
    const { pagePath, page, verifier } = await openSignIn(browser)
    expect(page.body).toContain('id="passkey-sign-in"')
    expect(page.body).toContain('<script src="/oidc/assets/passkey-sign-in.js" defer></script>')
    expect(page.body).not.toMatch(/<script>/)
    for (const file of ['passkey-sign-in.js', 'simplewebauthn-browser.js']) {
      const asset = await browser.request({ url: `/oidc/assets/${file}` })
      expect(asset.statusCode).toBe(200)
      expect(asset.headers['content-type']).toContain('text/javascript')
    }
    expect((await browser.request({ url: '/oidc/assets/../../package.json' })).statusCode).toBe(404)

    const options = await passkeyOptions(browser, pagePath)
    // A discoverable credential: nobody is named before the passkey answers.
    expect(options).toMatchObject({ rpId: 'localhost' })
    expect(options.allowCredentials ?? []).toEqual([])
    const posted = await browser.request({
      method: 'POST',
      url: `${pagePath}/passkey`,
      form: { credential: JSON.stringify(authenticator.get(options)) },
    })
    expect(posted.statusCode, posted.body).toBe(303)
    const { callback } = await browser.follow(posted)
    const tokens = (await exchangeCode(browser, callback!.searchParams.get('code')!, verifier)).json() as { access_token: string }
    expect(decodeJwt(tokens.access_token).sub).toBe(accountIdForEmail('anna@example.com'))
    const used = await db.selectFrom('passkeys').select(['counter', 'last_used_at']).executeTakeFirstOrThrow()
    expect(used).toMatchObject({ counter: 2, last_used_at: expect.any(Date) })
  })

  it('refuses a replayed answer, an answer for another page, and a passkey it does not know', async () => {
    const { app, authenticator } = await withPasskey()
    const browser = new TestBrowser(app)
    const { pagePath } = await openSignIn(browser)
    const options = await passkeyOptions(browser, pagePath)

    const stranger = new SoftwareAuthenticator(rp)
    stranger.create({ challenge: 'eA', user: { id: 'eA' } })
    const unknown = await browser.request({
      method: 'POST',
      url: `${pagePath}/passkey`,
      form: { credential: JSON.stringify(stranger.get(options)) },
    })
    expect(unknown.statusCode).toBe(401)
    expect(unknown.body).toContain('That passkey could not sign you in.')

    // An answer signed for another origin (a phishing page) is refused.
    const phished = await browser.request({
      method: 'POST',
      url: `${pagePath}/passkey`,
      form: { credential: JSON.stringify(authenticator.get(options, { origin: 'https://pactum.example.evil' })) },
    })
    expect(phished.statusCode).toBe(401)

    const answer = JSON.stringify(authenticator.get(options))
    expect((await browser.request({ method: 'POST', url: `${pagePath}/passkey`, form: { credential: answer } })).statusCode).toBe(303)
    // The same answer again, in another browser's sign-in: its challenge was this page's, and it is used.
    const other = new TestBrowser(app)
    const { pagePath: otherPage } = await openSignIn(other)
    await passkeyOptions(other, otherPage)
    expect((await other.request({ method: 'POST', url: `${otherPage}/passkey`, form: { credential: answer } })).statusCode).toBe(401)
  })

  it('refuses a counter that went backwards (a cloned authenticator)', async () => {
    const { app, authenticator } = await withPasskey()
    const browser = new TestBrowser(app)
    const { pagePath } = await openSignIn(browser)
    const first = await passkeyOptions(browser, pagePath)
    expect(
      (
        await browser.request({
          method: 'POST',
          url: `${pagePath}/passkey`,
          form: { credential: JSON.stringify(authenticator.get(first, { counter: 5 })) },
        })
      ).statusCode,
    ).toBe(303)
    const again = new TestBrowser(app)
    const { pagePath: nextPage } = await openSignIn(again)
    const next = await passkeyOptions(again, nextPage)
    expect(
      (
        await again.request({
          method: 'POST',
          url: `${nextPage}/passkey`,
          form: { credential: JSON.stringify(authenticator.get(next, { counter: 3 })) },
        })
      ).statusCode,
    ).toBe(401)
  })

  it('answers garbage with the sign-in page, not an error', async () => {
    const { app } = await withPasskey()
    const browser = new TestBrowser(app)
    const { pagePath } = await openSignIn(browser)
    for (const credential of ['', 'not json', '{"id":1}', 'x'.repeat(40_000)]) {
      const response = await browser.request({ method: 'POST', url: `${pagePath}/passkey`, form: { credential } })
      expect(response.statusCode).toBe(401)
      expect(response.body).toContain('<h1>')
    }
  })
})

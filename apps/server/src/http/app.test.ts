import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { generateKeyPair, SignJWT, UnsecuredJWT } from 'jose'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/test-app.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

async function start(options: Parameters<typeof createTestApp>[0] = {}) {
  testApp = await createTestApp(options)
  return testApp
}

describe('health', () => {
  it('answers ok and names the database engine', async () => {
    const { app } = await start()
    const response = await app.inject({ method: 'GET', url: '/api/v1/health' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      status: 'ok',
      database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    })
  })
})

describe('request ids', () => {
  it('echoes the client request id', async () => {
    const { app } = await start()
    const response = await app.inject({ url: '/api/v1/health', headers: { 'x-request-id': 'abc-123' } })
    expect(response.headers['x-request-id']).toBe('abc-123')
  })

  it('generates one when the client sent none or an unsafe one', async () => {
    const { app } = await start()
    const none = await app.inject({ url: '/api/v1/health' })
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    const unsafe = await app.inject({ url: '/api/v1/health', headers: { 'x-request-id': 'a b\u0000<script>' } })
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('errors', () => {
  it('answers an unknown API path with the error body, not the web app', async () => {
    const { app } = await start()
    const response = await app.inject({ url: '/api/v1/no-such-thing' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ code: 'not_found', error: 'No route for GET /api/v1/no-such-thing' })
  })
})

describe('JSON bodies', () => {
  const json = { 'content-type': 'application/json' }

  it('takes an empty body sent as application/json as no body', async () => {
    const { app, tokenFor } = await start()
    const headers = { ...json, authorization: `Bearer ${await tokenFor('ada@example.com')}` }
    const country = await app.inject({
      method: 'POST',
      url: '/api/v1/me/personal/set_active_country',
      headers,
      payload: JSON.stringify({ country_code: 'gb' }),
    })
    expect(country.statusCode).toBe(204)
    const accepted = await app.inject({ method: 'POST', url: '/api/v1/me/accept_tos_direct', headers, payload: '' })
    expect(accepted.statusCode).toBe(200)
  })

  it('still refuses a missing body where one is needed, naming body, and broken JSON likewise', async () => {
    const { app, tokenFor } = await start()
    const headers = { ...json, authorization: `Bearer ${await tokenFor('ada@example.com')}` }
    for (const payload of ['', '{"country_code":']) {
      const response = await app.inject({ method: 'POST', url: '/api/v1/me/personal/set_active_country', headers, payload })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ code: 'validation_failed', details: { fields: [{ field: 'body' }] } })
    }
  })

  it('checks the admin role before the body', async () => {
    const { app, tokenFor } = await start()
    const headers = { ...json, authorization: `Bearer ${await tokenFor('ada@example.com')}` }
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/transactions/019a0000-0000-7000-8000-000000000000/confirm_delivery',
      headers,
      payload: '',
    })
    expect(response.statusCode).toBe(403)
    expect(response.json().code).toBe('not_admin')
  })
})

describe('paths the router cannot read', () => {
  it('answers a path segment that is not URL encoding, or longer than any id, with 400 naming params', async () => {
    const { app, tokenFor } = await start()
    const token = await tokenFor('router@example.com')
    for (const url of [
      '/api/v1/transactions/%zz',
      `/api/v1/transactions/${'x'.repeat(150)}/charge?price=1000`,
      `/sandbox/v1/payment_intents/${'x'.repeat(150)}?client_secret=s`,
    ]) {
      const response = await app.inject({ url, headers: { authorization: `Bearer ${token}` } })
      expect(response.statusCode, url).toBe(400)
      expect(response.json(), url).toMatchObject({
        code: 'validation_failed',
        error: expect.stringMatching(/^params: /),
        details: { fields: [{ field: 'params', message: expect.any(String) }] },
      })
      expect(response.headers['x-request-id'], url).toBeDefined()
    }
  })
})

describe('security headers', () => {
  it('sends a strict Content-Security-Policy and friends', async () => {
    const { app } = await start()
    const response = await app.inject({ url: '/api/v1/health' })
    const csp = String(response.headers['content-security-policy'])
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain("script-src 'self' 'unsafe-inline'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['referrer-policy']).toBe('no-referrer')
    // One framing rule (CSP frame-ancestors), and no HTTPS pinning over plain HTTP.
    expect(response.headers['x-frame-options']).toBeUndefined()
    expect(response.headers['strict-transport-security']).toBeUndefined()
  })

  it('pins HTTPS only where a trusted proxy says the browser came over it', async () => {
    const { app } = await start({ env: { TRUST_PROXY: 'true' } })
    const overHttps = await app.inject({ url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } })
    expect(overHttps.headers['strict-transport-security']).toMatch(/max-age=\d+/)
    const overHttp = await app.inject({ url: '/api/v1/health', headers: { 'x-forwarded-proto': 'http' } })
    expect(overHttp.headers['strict-transport-security']).toBeUndefined()
  })

  it('pins HTTPS behind a proxy named by its address as well', async () => {
    const { app } = await start({ env: { TRUST_PROXY: 'loopback' } })
    const overHttps = await app.inject({ url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } })
    expect(overHttps.headers['strict-transport-security']).toMatch(/max-age=\d+/)
  })

  it('keeps signed-in API answers out of every cache', async () => {
    const { app } = await start()
    const token = await testApp!.tokenFor('anna@example.com')
    const signedIn = await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })
    expect(signedIn.statusCode).toBe(200)
    expect(signedIn.headers['cache-control']).toBe('no-store')
  })
})

describe('OpenAPI', () => {
  it('documents the routes from their schemas', async () => {
    const { app } = await start()
    const response = await app.inject({ url: '/api/docs/json' })
    expect(response.statusCode).toBe(200)
    const document = response.json()
    expect(document.openapi).toMatch(/^3\./)
    expect(document.paths['/api/v1/health'].get.responses['200']).toBeDefined()
    expect(document.paths['/api/v1/me'].get.security).toEqual([{ bearer: [] }])
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/oidc'))).toEqual([])
  })

  it('lists every error code, the precise wrong-state reasons included', async () => {
    const { app } = await start()
    const document = (await app.inject({ url: '/api/docs/json' })).json()
    expect(document.components.schemas.Error.properties.code.enum).toEqual(
      expect.arrayContaining([
        'tracking_not_added',
        'not_complained',
        'not_paid',
        'payment_in_progress',
        'deposit_not_accepted',
        'price_not_set',
        'invalid_limit',
      ]),
    )
  })

  it('shows the reason an admin action requires', async () => {
    const { app } = await start()
    const document = (await app.inject({ url: '/api/docs/json' })).json()
    for (const action of ['confirm_delivery', 'release_funds']) {
      const requestBody = document.paths[`/api/v1/admin/transactions/{id}/${action}`].post.requestBody
      expect(requestBody.required).toBe(true)
      const name = String(requestBody.content['application/json'].schema.$ref).split('/').pop() as string
      const schema = document.components.schemas[name]
      expect(schema.required).toEqual(['reason'])
      expect(schema.description).toMatch(/reason/)
      expect(schema.properties.reason).toMatchObject({ type: 'string', minLength: 1, description: expect.any(String) })
    }
  })

  it('serves the interactive reference', async () => {
    const { app } = await start()
    const response = await app.inject({ url: '/api/docs/' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/text\/html/)
  })
})

describe('authentication', () => {
  it('answers 401 without a token', async () => {
    const { app } = await start()
    const response = await app.inject({ url: '/api/v1/me' })
    expect(response.statusCode).toBe(401)
    expect(response.json().code).toBe('unauthenticated')
  })

  it('creates the user from a valid token on first use, once', async () => {
    const { app, tokenFor, database } = await start()
    const token = await tokenFor('Anna@Example.com', { firstName: 'Anna', lastName: 'Nowak' })
    const first = await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })
    expect(first.statusCode).toBe(200)
    expect(first.json()).toMatchObject({ email: 'anna@example.com', first_name: 'Anna', last_name: 'Nowak', roles: [] })
    const second = await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })
    expect(second.json().id).toBe(first.json().id)
    const rows = await database.db.selectFrom('users').select('id').execute()
    expect(rows).toHaveLength(1)
  })

  it('grants admin from the token claim and from ADMIN_EMAILS (a confirmed address, a second factor)', async () => {
    const { app, tokenFor } = await start({ env: { ADMIN_EMAILS: 'boss@example.com' } })
    const claimed = await tokenFor('ops@example.com', { admin: true })
    const listed = await tokenFor('boss@example.com', { emailVerified: true, amr: ['mfa', 'otp', 'pwd'] })
    for (const token of [claimed, listed]) {
      const response = await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })
      expect(response.json().roles).toEqual(['admin'])
    }
  })

  it('refuses an expired token', async () => {
    const { app, tokenFor } = await start()
    const token = await tokenFor('late@example.com', { ttlSeconds: -60 })
    const response = await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })
    expect(response.statusCode).toBe(401)
  })

  it('refuses unsigned tokens and tokens signed by another key', async () => {
    const { app } = await start()
    const claims = { sub: 'x', email: 'mallory@example.com', aud: 'pactum-api' }
    const unsigned = new UnsecuredJWT(claims).setIssuer('http://localhost:3999/oidc').setExpirationTime('5m').encode()
    const { privateKey } = await generateKeyPair('RS256')
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' })
      .setIssuer('http://localhost:3999/oidc')
      .setExpirationTime('5m')
      .sign(privateKey)
    for (const token of [unsigned, forged]) {
      const response = await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })
      expect(response.statusCode).toBe(401)
    }
  })

  it('refuses a token for another audience', async () => {
    const { app } = await start()
    const key = app.embeddedSigningKey!
    const { importJWK } = await import('jose')
    const token = await new SignJWT({ email: 'a@example.com' })
      .setProtectedHeader({ alg: String(key.alg), kid: String(key.kid), typ: 'at+jwt' })
      .setIssuer('http://localhost:3999/oidc')
      .setSubject('a')
      .setAudience('some-other-api')
      .setExpirationTime('5m')
      .sign(await importJWK(key, String(key.alg)))
    const response = await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })
    expect(response.statusCode).toBe(401)
  })
})

describe('the web app', () => {
  async function withBuiltWebApp() {
    const dist = await mkdtemp(path.join(tmpdir(), 'pactum-dist-'))
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Pactum</title>')
    return start({ webDistDir: dist })
  }

  it('serves index.html for any app route (history fallback)', async () => {
    const { app } = await withBuiltWebApp()
    for (const url of ['/', '/transactions', '/profile/help/faq?x=1', '/no/such/page']) {
      const response = await app.inject({ url })
      expect(response.statusCode, url).toBe(200)
      expect(response.body).toContain('<title>Pactum</title>')
      expect(response.headers['content-security-policy']).toBeDefined()
    }
  })

  it("sends the build's pre-compressed copy of a bundle file when the browser accepts it", async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'pactum-dist-'))
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Pactum</title>')
    await mkdir(path.join(dist, 'assets'))
    const code = 'export const answer = 42;\n'.repeat(100)
    await writeFile(path.join(dist, 'assets/index-abc.js'), code)
    await writeFile(path.join(dist, 'assets/index-abc.js.gz'), gzipSync(code))
    const { app } = await start({ webDistDir: dist })

    const gzipped = await app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'gzip' } })
    expect(gzipped.statusCode).toBe(200)
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(code)
    expect(gzipped.headers['cache-control']).toContain('immutable')

    const plain = await app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(code)
  })

  it('keeps API and missing asset paths out of the fallback', async () => {
    const { app } = await withBuiltWebApp()
    expect((await app.inject({ url: '/api/v1/nope' })).json().code).toBe('not_found')
    expect((await app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404)
    // The /app_api calls (balance, payouts) are the server's too, even when a browser asks for them.
    const balance = await app.inject({ url: '/app_api/balance', headers: { accept: 'application/json' } })
    expect(balance.statusCode).toBe(401)
    expect(balance.json().code).toBe('unauthenticated')
    // The link that stops invitations opens the server's page, not the web app's.
    const stop = await app.inject({ url: `/stop-invitations/${'a'.repeat(43)}`, headers: { accept: 'text/html' } })
    expect(stop.statusCode).toBe(200)
    expect(stop.body).toContain('Stop invitations to this address')
  })
})

describe('the client address behind a proxy (TRUST_PROXY)', () => {
  const echoIp = (app: TestApp['app']) => {
    app.get('/test/ip', async (request) => ({ ip: request.ip }))
  }

  it('takes the address the listed proxy saw, not one the client wrote in front of it', async () => {
    const { app } = await start({ env: { TRUST_PROXY: '127.0.0.1' }, beforeReady: echoIp })
    // nginx's $proxy_add_x_forwarded_for appends the peer it saw to whatever the client sent.
    const response = await app.inject({
      url: '/test/ip',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' },
    })
    expect(response.json()).toEqual({ ip: '198.51.100.7' })
  })

  it('ignores the header from a peer that is not a listed proxy', async () => {
    const { app } = await start({ env: { TRUST_PROXY: '127.0.0.1' }, beforeReady: echoIp })
    const response = await app.inject({ url: '/test/ip', remoteAddress: '192.0.2.1', headers: { 'x-forwarded-for': '198.51.100.7' } })
    expect(response.json()).toEqual({ ip: '192.0.2.1' })
  })

  it('ignores the header when no proxy is trusted', async () => {
    const { app } = await start({ beforeReady: echoIp })
    const response = await app.inject({ url: '/test/ip', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.7' } })
    expect(response.json()).toEqual({ ip: '127.0.0.1' })
  })
})

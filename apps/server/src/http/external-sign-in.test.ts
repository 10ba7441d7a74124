import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/test-app.ts'

/**
 * With OIDC_ISSUER / OIDC_CLIENT_ID / OIDC_AUDIENCE set, the embedded
 * provider is off and tokens are checked against the external issuer's
 * published keys (found through its discovery document).
 */
let issuerServer: Server
let issuer: string
let signingKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256')
  signingKey = privateKey
  const jwk = { ...(await exportJWK(publicKey)), kid: 'external-1', alg: 'RS256', use: 'sig' }
  issuerServer = createServer((request, response) => {
    response.setHeader('content-type', 'application/json')
    if (request.url === '/realms/pactum/.well-known/openid-configuration') {
      response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/certs` }))
    } else if (request.url === '/realms/pactum/certs') {
      response.end(JSON.stringify({ keys: [jwk] }))
    } else {
      response.statusCode = 404
      response.end('{}')
    }
  })
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve))
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}/realms/pactum`
})
afterAll(() => new Promise<void>((resolve) => issuerServer.close(() => resolve())))

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

async function startWithExternalIssuer() {
  testApp = await createTestApp({
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'pactum-web', OIDC_AUDIENCE: 'pactum-backend' },
  })
  return testApp.app
}

function externalToken(claims: { audience?: string; issuer?: string } = {}) {
  return new SignJWT({ email: 'eve@example.com', given_name: 'Eve', family_name: 'External' })
    .setProtectedHeader({ alg: 'RS256', kid: 'external-1', typ: 'at+jwt' })
    .setIssuer(claims.issuer ?? issuer)
    .setSubject('f:123:eve')
    .setAudience(claims.audience ?? 'pactum-backend')
    .setExpirationTime('5m')
    .sign(signingKey)
}

describe('an external sign-in provider', () => {
  it('turns the embedded provider off', async () => {
    const app = await startWithExternalIssuer()
    const discovery = await app.inject({ url: '/oidc/.well-known/openid-configuration' })
    expect(discovery.statusCode).toBe(404)
    expect(app.embeddedSigningKey).toBeNull()
  })

  it('tells the web app where to sign in', async () => {
    const app = await startWithExternalIssuer()
    const config = (await app.inject({ url: '/api/v1/config' })).json()
    expect(config.oidc).toMatchObject({ authority: issuer, client_id: 'pactum-web', supports_registration: false })
  })

  it("accepts the issuer's tokens and keys the user by its issuer and subject", async () => {
    const app = await startWithExternalIssuer()
    const response = await app.inject({
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${await externalToken()}` },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ email: 'eve@example.com', first_name: 'Eve' })
    const row = await testApp!.database.db.selectFrom('users').selectAll().executeTakeFirstOrThrow()
    expect(row).toMatchObject({ issuer, subject: 'f:123:eve' })
  })

  it('refuses tokens for another audience or from another issuer', async () => {
    const app = await startWithExternalIssuer()
    for (const token of [await externalToken({ audience: 'someone-else' }), await externalToken({ issuer: 'https://evil.example' })]) {
      const response = await app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })
      expect(response.statusCode).toBe(401)
    }
  })

  it('lets the browser reach the issuer under the Content-Security-Policy', async () => {
    const app = await startWithExternalIssuer()
    const csp = String((await app.inject({ url: '/api/v1/health' })).headers['content-security-policy'])
    expect(csp).toContain(`connect-src 'self' ${new URL(issuer).origin}`)
  })
})

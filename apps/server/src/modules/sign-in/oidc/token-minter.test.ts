import { generateKeyPairSync } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createLocalJWKSet, type JWK, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { publicKeySet, writeSigningKeyFile } from './server-secrets.ts'
import { accountIdForEmail, mintAccessToken, readSigningKeyFile } from './token-minter.ts'

function testKey(): JWK {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: 'test-key', alg: 'RS256', use: 'sig' }
}

const issuer = 'http://localhost:3999/oidc'

describe('accountIdForEmail', () => {
  it('is stable, UUID-shaped and ignores case and outer space', () => {
    const id = accountIdForEmail('anna@example.com')
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(accountIdForEmail('  Anna@EXAMPLE.com ')).toBe(id)
    expect(accountIdForEmail('anna@example.com')).toBe(id)
    expect(accountIdForEmail('anna2@example.com')).not.toBe(id)
    // Part of every user's identity: pinned so that a change cannot slip through.
    expect(id).toBe('e37cb650-a3ba-8502-a5f4-eb0e2769d1b7')
  })
})

describe('mintAccessToken', () => {
  /** A token for the app's client, signed with `key`, with the claims the test is about. */
  function mintForApp(key: JWK, claims: { email: string; firstName?: string; lastName?: string; admin?: boolean; ttlSeconds?: number }) {
    return mintAccessToken({ privateSigningKey: key, issuer, audience: 'pactum-api', clientId: 'pactum-app', ...claims })
  }

  it('mints a token the API verifies, shaped like the provider’s', async () => {
    const key = testKey()
    const token = await mintForApp(key, { email: 'Bob@Example.com', firstName: 'Bob', lastName: 'Builder' })
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(publicKeySet([key])), {
      issuer,
      audience: 'pactum-api',
      algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      requiredClaims: ['sub', 'exp'],
    })
    expect(protectedHeader).toEqual({ alg: 'RS256', kid: 'test-key', typ: 'at+jwt' })
    expect(payload).toMatchObject({
      sub: accountIdForEmail('bob@example.com'),
      client_id: 'pactum-app',
      scope: 'api',
      email: 'bob@example.com',
      given_name: 'Bob',
      family_name: 'Builder',
    })
    expect(payload.roles).toBeUndefined()
  })

  it('carries the admin role when asked, and the requested lifetime', async () => {
    const key = testKey()
    const token = await mintForApp(key, { email: 'admin@example.com', admin: true, ttlSeconds: 120 })
    const { payload } = await jwtVerify(token, createLocalJWKSet(publicKeySet([key])), { issuer, audience: 'pactum-api' })
    expect(payload.roles).toEqual(['admin'])
    expect(payload.exp! - payload.iat!).toBe(120)
  })
})

describe('signing key file', () => {
  it('round-trips the private key through DATA_DIR', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pactum-key-'))
    try {
      const key = testKey()
      await writeSigningKeyFile(path.join(dataDir, 'nested'), key)
      expect(await readSigningKeyFile(path.join(dataDir, 'nested'))).toEqual(key)
      await expect(readSigningKeyFile(dataDir)).rejects.toThrow()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('publishes no private member', () => {
    const [published] = publicKeySet([testKey()]).keys
    expect(Object.keys(published!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use'])
  })
})

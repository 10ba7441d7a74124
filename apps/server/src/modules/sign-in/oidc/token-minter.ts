import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { importJWK, type JWK, SignJWT } from 'jose'
import { accountIdForEmail } from './account-id.ts'

// The command line computes the `sub` here; it is defined next to the accounts.
export { accountIdForEmail } from './account-id.ts'

/** Where the server leaves its private signing key for the command line (DESIGN §5). */
export function signingKeyFilePath(dataDir: string): string {
  return path.join(dataDir, 'oidc-signing-key.json')
}

export async function readSigningKeyFile(dataDir: string): Promise<JWK> {
  const key = JSON.parse(await readFile(signingKeyFilePath(dataDir), 'utf8')) as JWK
  if (!key.kid || !key.alg || !key.d) throw new Error(`${signingKeyFilePath(dataDir)} holds no private signing key`)
  return key
}

/**
 * An access token shaped exactly like those the embedded provider issues
 * (same header type, issuer, audience and profile claims), so that the API
 * cannot tell a command-line token from a browser sign-in.
 */
export async function mintAccessToken(o: {
  privateSigningKey: JWK
  issuer: string
  audience: string
  clientId: string
  email: string
  firstName?: string
  lastName?: string
  admin?: boolean
  /** Whether the address counts as confirmed (company and partner privileges need it). */
  emailVerified?: boolean
  ttlSeconds?: number
  /** When the token says it was issued (tests of tokens older than an event); default now. */
  issuedAt?: Date
  /** How the sign-in was made (RFC 8176 `amr`), as the embedded sign-in says it; none by default. */
  amr?: readonly string[]
}): Promise<string> {
  const { kid, alg } = o.privateSigningKey
  if (!kid || !alg) throw new Error('the signing key needs kid and alg')
  const email = o.email.trim().toLowerCase()
  const key = await importJWK(o.privateSigningKey, alg)
  const now = Math.floor((o.issuedAt?.getTime() ?? Date.now()) / 1000)
  return new SignJWT({
    client_id: o.clientId,
    scope: 'api',
    email,
    email_verified: o.emailVerified ?? false,
    given_name: o.firstName ?? '',
    family_name: o.lastName ?? '',
    ...(o.admin ? { roles: ['admin'] } : {}),
    ...(o.amr ? { amr: [...o.amr] } : {}),
  })
    .setProtectedHeader({ alg, kid, typ: 'at+jwt' })
    .setIssuer(o.issuer)
    .setSubject(accountIdForEmail(email))
    .setAudience(o.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + (o.ttlSeconds ?? 3600))
    .setJti(randomUUID())
    .sign(key)
}

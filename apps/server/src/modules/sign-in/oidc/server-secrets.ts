import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto'
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises'
import type { JSONWebKeySet, JWK } from 'jose'
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.ts'
import { loadOrCreateServerSecret } from '../../../db/server-secrets.ts'
import { signingKeyFilePath } from './token-minter.ts'

/**
 * The provider's long-lived secrets, generated on first start and kept in
 * the database (never in the repository): every process on the same database
 * signs with the same keys and reads the same cookies, and a restart signs
 * nobody out.
 */
export interface ProviderSecrets {
  /** Private signing keys, newest first (the first one signs). */
  signingKeys: JWK[]
  /** Keys for oidc-provider's signed cookies, newest first. */
  cookieKeys: string[]
  /** The HMAC key of the sign-in device cookie (device-cookie.ts). */
  deviceCookieKey: string
}

export const signingKeysName = 'oidc_signing_keys'
const cookieKeysName = 'oidc_cookie_keys'
const deviceCookieKeyName = 'sign_in_device_cookie_key'

export async function loadOrCreateSecrets(db: Kysely<Database>): Promise<ProviderSecrets> {
  const signing = await loadOrCreateServerSecret<{ keys: JWK[] }>(db, signingKeysName, () => ({ keys: [newSigningKey()] }))
  const cookies = await loadOrCreateServerSecret<{ keys: string[] }>(db, cookieKeysName, () => ({
    keys: [randomBytes(32).toString('base64url')],
  }))
  const device = await loadOrCreateServerSecret<{ key: string }>(db, deviceCookieKeyName, () => ({
    key: randomBytes(32).toString('base64url'),
  }))
  return { signingKeys: signing.keys, cookieKeys: cookies.keys, deviceCookieKey: device.key }
}

/** RS256: what every OIDC client and JWT library supports. */
export function newSigningKey(): JWK {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: randomUUID(), alg: 'RS256', use: 'sig' }
}

const privateMembers = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'])

export function publicKeySet(privateKeys: JWK[]): JSONWebKeySet {
  return {
    keys: privateKeys.map((key) => Object.fromEntries(Object.entries(key).filter(([member]) => !privateMembers.has(member))) as JWK),
  }
}

/**
 * The command line mints tokens while the server holds the embedded
 * database open, so the signing key is also left in DATA_DIR, readable by
 * the owner only. Written to a temporary file and renamed so that a reader
 * never sees half a key.
 */
export async function writeSigningKeyFile(dataDir: string, key: JWK): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  const target = signingKeyFilePath(dataDir)
  const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temporary, `${JSON.stringify(key)}\n`, { mode: 0o600 })
  await chmod(temporary, 0o600)
  await rename(temporary, target)
}

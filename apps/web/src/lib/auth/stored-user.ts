import type { ClientConfig } from '@pactum/contracts/client-config'
import type { AuthUser } from './auth-service.ts'

/**
 * Where oidc-client-ts keeps the signed-in user: its WebStorageStateStore
 * ("oidc." prefix) under `user:<authority>:<client_id>`, as the JSON of
 * User.toStorageString(). lazy-auth-service.test.ts stores a user through
 * oidc-client-ts itself and reads it back here, so an upgrade that moves it
 * fails a test rather than signing everyone out.
 */
export function storedUserKey(config: ClientConfig): string {
  return `oidc.user:${config.oidc.authority}:${config.oidc.client_id}`
}

interface StoredUser {
  access_token?: unknown
  expires_at?: unknown
  profile?: { given_name?: unknown; family_name?: unknown; email?: unknown; email_verified?: unknown }
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/** The stored user, read without loading the OpenID client; null when there is none or it is unreadable. */
export function readStoredUser(config: ClientConfig, storage: Storage): AuthUser | null {
  let stored: StoredUser
  try {
    const raw = storage.getItem(storedUserKey(config))
    if (!raw) return null
    stored = JSON.parse(raw) as StoredUser
  } catch {
    return null
  }
  if (typeof stored !== 'object' || stored === null || typeof stored.access_token !== 'string' || stored.access_token === '') return null
  const profile = stored.profile ?? {}
  return {
    accessToken: stored.access_token,
    expiresAt: typeof stored.expires_at === 'number' ? stored.expires_at : undefined,
    profile: {
      givenName: text(profile.given_name),
      familyName: text(profile.family_name),
      email: text(profile.email),
      emailVerified: typeof profile.email_verified === 'boolean' ? profile.email_verified : undefined,
    },
  }
}

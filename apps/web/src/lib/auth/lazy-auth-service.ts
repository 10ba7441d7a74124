import type { ClientConfig } from '@pactum/contracts/client-config'
import type { AuthService } from './auth-service.ts'
import { readStoredUser } from './stored-user.ts'

/**
 * The OpenID client (oidc-client-ts, ~16 kB gzip) is needed to sign in,
 * refresh and sign out, never to show a page to someone already signed in:
 * the stored user is read directly (stored-user.ts) and the client is fetched
 * on the first call that needs it (issue 13, first-load budget).
 */
export function createLazyOidcAuthService(
  config: ClientConfig,
  origin: string,
  storage: Storage,
  supportsRegistration: boolean,
): AuthService {
  let client: Promise<AuthService> | undefined
  const oidc = () => {
    if (!client) {
      client = import('./oidc-auth-service.ts').then(({ createOidcAuthService, createUserManager }) =>
        createOidcAuthService(createUserManager(config, origin, storage), supportsRegistration),
      )
      // A failed download is tried again on the next call.
      client.catch(() => {
        client = undefined
      })
    }
    return client
  }
  return {
    getUser: async () => readStoredUser(config, storage),
    peekUser: () => readStoredUser(config, storage),
    signIn: async (options) => (await oidc()).signIn(options),
    completeSignIn: async (url) => (await oidc()).completeSignIn(url),
    refresh: async () => (await oidc()).refresh(),
    clear: async () => (await oidc()).clear(),
    signOut: async () => (await oidc()).signOut(),
  }
}

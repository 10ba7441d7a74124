import type { ClientConfig } from '@pactum/contracts/client-config'
import { type User, UserManager, WebStorageStateStore } from 'oidc-client-ts'
import type { AuthService, AuthUser } from './auth-service.ts'
import { safeReturnTo } from './return-to.ts'

export function createUserManager(config: ClientConfig, origin: string, storage: Storage): UserManager {
  return new UserManager({
    authority: config.oidc.authority,
    client_id: config.oidc.client_id,
    redirect_uri: `${origin}/auth/callback`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    scope: config.oidc.scope,
    // localStorage, so that a reload or a new tab keeps the session.
    userStore: new WebStorageStateStore({ store: storage }),
    // The app refreshes on its own schedule (spec §7), see token-refresh-policy.ts.
    automaticSilentRenew: false,
  })
}

/** The parts of oidc-client-ts's User the app reads (stored-user.ts reads the same from storage). */
export function toAuthUser(user: Pick<User, 'access_token' | 'expires_at' | 'profile'>): AuthUser {
  return {
    accessToken: user.access_token,
    expiresAt: user.expires_at,
    profile: {
      givenName: user.profile.given_name,
      familyName: user.profile.family_name,
      email: user.profile.email,
      emailVerified: user.profile.email_verified,
    },
  }
}

export function createOidcAuthService(manager: UserManager, supportsRegistration: boolean): AuthService {
  // A callback URL can be processed only once (its state is consumed); React's
  // strict mode runs effects twice, so the second caller gets the first result.
  const callbacks = new Map<string, Promise<{ user: AuthUser; returnTo: string }>>()

  return {
    async getUser() {
      const user = await manager.getUser()
      return user ? toAuthUser(user) : null
    },
    async signIn({ returnTo, register, loginHint, uiLocales }) {
      await manager.signinRedirect({
        state: { returnTo },
        ui_locales: uiLocales,
        ...(register && supportsRegistration ? { prompt: 'create' } : {}),
        ...(loginHint ? { login_hint: loginHint } : {}),
      })
    },
    completeSignIn(url) {
      let pending = callbacks.get(url)
      if (!pending) {
        pending = manager.signinCallback(url).then((user) => {
          if (!user) throw new Error('The sign-in response carried no user')
          const state = user.state as { returnTo?: unknown } | undefined
          return { user: toAuthUser(user), returnTo: safeReturnTo(state?.returnTo) }
        })
        callbacks.set(url, pending)
      }
      return pending
    },
    async refresh() {
      const user = await manager.signinSilent()
      if (!user) throw new Error('The provider returned no user on refresh')
      return toAuthUser(user)
    },
    clear() {
      return manager.removeUser()
    },
    async signOut() {
      const user = await manager.getUser()
      await manager.signoutRedirect({ id_token_hint: user?.id_token })
    },
  }
}

import { vi } from 'vitest'
import type { AuthService, AuthUser, SignInOptions } from '../lib/auth/auth-service.ts'

export function fakeUser(overrides: Partial<AuthUser> = {}): AuthUser {
  return {
    accessToken: 'access-token-1',
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    profile: { givenName: 'Anna', familyName: 'Nowak', email: 'anna@example.com' },
    ...overrides,
  }
}

/** An AuthService double whose every method is a spy; `user` is what the store holds. */
export function fakeAuthService(user: AuthUser | null = fakeUser()) {
  let stored = user
  return {
    getUser: vi.fn(async () => stored),
    signIn: vi.fn(async (_options: SignInOptions) => undefined),
    completeSignIn: vi.fn(async (_url: string) => ({ user: fakeUser(), returnTo: '/transactions' })),
    refresh: vi.fn(async (): Promise<AuthUser> => {
      throw new Error('refresh refused')
    }),
    clear: vi.fn(async () => {
      stored = null
    }),
    signOut: vi.fn(async () => undefined),
  } satisfies AuthService
}

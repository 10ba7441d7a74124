import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import type { AuthService, AuthUser } from './auth-service.ts'
import { needsRefresh, startTokenWatch } from './token-refresh-policy.ts'

export interface AuthContextValue {
  /** 'loading' until the stored session has been read (and refreshed if it was about to expire). */
  status: 'loading' | 'ready'
  user: AuthUser | null
  signIn: (options?: { returnTo?: string; register?: boolean; loginHint?: string }) => Promise<void>
  /** Finishes the provider's redirect; resolves to the path to continue at. */
  completeSignIn: (url: string) => Promise<string>
  /** Refreshes the tokens; on failure forgets the user (which sends them to sign-in) and resolves to null. */
  refresh: () => Promise<AuthUser | null>
  /** Ends the provider's session too; forgets the tokens even when that cannot start. */
  signOut: () => Promise<void>
  getAccessToken: () => string | undefined
}

const AuthContext = createContext<AuthContextValue | null>(null)

export function AuthProvider({ service, children, now = Date.now }: { service: AuthService; children: ReactNode; now?: () => number }) {
  const { i18n } = useTranslation()
  // A stored session that needs no refresh is used on the first render; anything else waits for the effect below.
  const [initial] = useState(() => {
    const peeked = service.peekUser?.() ?? null
    return peeked && !needsRefresh(peeked.expiresAt, now()) ? peeked : null
  })
  const [state, setState] = useState<{ status: 'loading' | 'ready'; user: AuthUser | null }>({
    status: initial ? 'ready' : 'loading',
    user: initial,
  })
  const userRef = useRef<AuthUser | null>(initial)
  const inflightRefresh = useRef<Promise<AuthUser | null> | undefined>(undefined)

  // Bumped on every change, so the initial read of the store cannot overwrite a
  // user that a sign-in callback or a refresh produced while the read was pending.
  const generation = useRef(0)

  const setUser = useCallback((user: AuthUser | null) => {
    generation.current += 1
    userRef.current = user
    setState({ status: 'ready', user })
  }, [])

  const refresh = useCallback(() => {
    // Parallel callers (the timer and a 401 at the same moment) share one refresh:
    // the provider rotates refresh tokens, so a second use of the old one would fail.
    inflightRefresh.current ??= (async () => {
      try {
        const user = await service.refresh()
        setUser(user)
        return user
      } catch {
        await service.clear().catch(() => undefined)
        setUser(null)
        return null
      } finally {
        inflightRefresh.current = undefined
      }
    })()
    return inflightRefresh.current
  }, [service, setUser])

  useEffect(() => {
    // Read on the first render already: reading again would only re-render every consumer with the same user.
    if (initial) return
    let cancelled = false
    const startedAt = generation.current
    void (async () => {
      const stored = await service.getUser().catch(() => null)
      if (cancelled || generation.current !== startedAt) return
      if (stored && needsRefresh(stored.expiresAt, now())) {
        userRef.current = stored
        await refresh()
      } else {
        setUser(stored)
      }
    })()
    return () => {
      cancelled = true
    }
  }, [initial, service, refresh, setUser, now])

  const signedIn = state.user !== null
  useEffect(() => {
    if (!signedIn) return
    return startTokenWatch({ expiresAt: () => userRef.current?.expiresAt, refresh, now })
  }, [signedIn, refresh, now])

  const signIn = useCallback<AuthContextValue['signIn']>(
    (options) =>
      service.signIn({
        returnTo: options?.returnTo ?? '/transactions',
        register: options?.register,
        loginHint: options?.loginHint,
        uiLocales: i18n.language,
      }),
    [service, i18n],
  )
  const completeSignIn = useCallback(
    async (url: string) => {
      const { user, returnTo } = await service.completeSignIn(url)
      setUser(user)
      return returnTo
    },
    [service, setUser],
  )
  const signOut = useCallback(async () => {
    try {
      await service.signOut()
    } catch (error) {
      // The provider's sign-out could not start (no end_session_endpoint, the issuer unreachable):
      // the app forgets the tokens all the same, in the store and in memory, rather than stay signed in.
      console.error(error)
      await service.clear().catch(() => undefined)
      setUser(null)
    }
  }, [service, setUser])
  const getAccessToken = useCallback(() => userRef.current?.accessToken, [])

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, signIn, completeSignIn, refresh, signOut, getAccessToken }),
    [state, signIn, completeSignIn, refresh, signOut, getAccessToken],
  )

  return <AuthContext value={value}>{children}</AuthContext>
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext)
  if (!value) throw new Error('useAuth needs an <AuthProvider>')
  return value
}

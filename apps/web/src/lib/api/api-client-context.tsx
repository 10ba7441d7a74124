import { createContext, type ReactNode, useContext, useMemo } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useAuth } from '../auth/auth-context.tsx'
import { type ApiClient, createApiClient } from './api-client.ts'

const ApiClientContext = createContext<ApiClient | null>(null)

/** Provides the API client wired to the current session. `client` lets tests substitute one. */
export function ApiClientProvider({ children, client }: { children: ReactNode; client?: ApiClient }) {
  const auth = useAuth()
  const { getAccessToken, refresh, signIn } = auth
  const { i18n } = useTranslation()
  const value = useMemo(
    () =>
      client ??
      createApiClient({
        getAccessToken,
        // Read at each request, so a language switch applies from the next call on.
        getLanguage: () => i18n.language,
        refreshAccessToken: async () => (await refresh())?.accessToken ?? null,
        onUnauthenticated: () => {
          void signIn({ returnTo: window.location.pathname + window.location.search })
        },
      }),
    [client, getAccessToken, refresh, signIn, i18n],
  )
  return <ApiClientContext value={value}>{children}</ApiClientContext>
}

export function useApiClient(): ApiClient {
  const client = useContext(ApiClientContext)
  if (!client) throw new Error('useApiClient needs an <ApiClientProvider>')
  return client
}

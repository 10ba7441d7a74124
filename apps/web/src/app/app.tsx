import type { ClientConfig } from '@pactum/contracts/client-config'
import { type QueryClient, useQuery } from '@tanstack/react-query'
import type { Translator as I18n } from '../i18n/translator.ts'
import { useState } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { BrowserRouter, useRoutes } from 'react-router'
import { FullPageStatus } from '../components/status-message.tsx'
import { captureJoinCode } from '../features/onboarding/join-code-memory.ts'
import { createLazyOidcAuthService } from '../lib/auth/lazy-auth-service.ts'
import { clientConfigQuery } from '../lib/client-config-query.ts'
import { captureClientId } from '../lib/partner-client/client-id-memory.ts'
import { BaseProviders, SessionProviders } from './providers.tsx'
import { routes } from './routes.tsx'

// Spec §4: a join code in the URL at startup is kept for after the country-and-terms prompt.
captureJoinCode(window.location.pathname)
// Spec §1: a partner's `?client_id=` is kept before the sign-in redirect can drop it.
captureClientId(window.location.search)

/**
 * The declarative router, not createBrowserRouter: no page uses loaders,
 * actions or blockers, and the data router's code is ~17 kB gzip of the first
 * load (issue 13). Tests render the same route table in a memory data router.
 */
function AppRoutes() {
  return useRoutes(routes)
}

function SignedInApp({ config }: { config: ClientConfig }) {
  const [auth] = useState(() =>
    createLazyOidcAuthService(config, window.location.origin, window.localStorage, config.oidc.supports_registration),
  )
  return (
    <SessionProviders config={config} auth={auth}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </SessionProviders>
  )
}

/** Sign-in cannot start before we know the provider, so the config comes first. */
function ConfiguredApp() {
  const { t } = useTranslation()
  const config = useQuery(clientConfigQuery)
  if (config.isPending) return <FullPageStatus busy title={t('app.loading')} />
  if (config.isError) {
    return (
      <FullPageStatus
        title={t('errors.config.title')}
        body={t('errors.config.body')}
        action={{ label: t('errors.config.retry'), onClick: () => void config.refetch() }}
      />
    )
  }
  return <SignedInApp config={config.data} />
}

export function App({ i18n, queryClient }: { i18n: I18n; queryClient: QueryClient }) {
  return (
    <BaseProviders i18n={i18n} queryClient={queryClient}>
      <ConfiguredApp />
    </BaseProviders>
  )
}

import type { Locale } from '@pactum/domain/locales'
import type { ClientConfig } from '@pactum/contracts/client-config'
import { QueryClient } from '@tanstack/react-query'
import type { Translator as I18n } from '../i18n/translator.ts'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { BaseProviders, SessionProviders } from '../app/providers.tsx'
import { routes } from '../app/routes.tsx'
import { createI18n } from '../i18n/i18n.ts'
import type { ApiClient } from '../lib/api/api-client.ts'
import type { AuthService } from '../lib/auth/auth-service.ts'
import { defaultApiRoutes, fakeApiClient } from './fake-api-client.ts'
import { fakeAuthService } from './fake-auth-service.ts'

export const testConfig: ClientConfig = {
  oidc: {
    authority: 'http://localhost:3000/oidc',
    client_id: 'pactum-web',
    scope: 'openid profile email offline_access',
    supports_registration: true,
    supports_email_confirmation: true,
    supports_password_change: true,
  },
  support_email: 'support@pactum.test',
}

/** The app's providers around `children`, with a fake sign-in and the given API client: a `wrapper` for renderHook. */
export function sessionWrapper({
  i18n,
  queryClient,
  api,
  auth = fakeAuthService(),
}: {
  i18n: I18n
  queryClient: QueryClient
  api: ApiClient
  auth?: AuthService
}) {
  return function SessionWrapper({ children }: { children: ReactNode }) {
    return (
      <BaseProviders i18n={i18n} queryClient={queryClient}>
        <SessionProviders config={testConfig} auth={auth} apiClient={api}>
          {children}
        </SessionProviders>
      </BaseProviders>
    )
  }
}

/** Renders the real route table at `path`, with a fake sign-in and no network (`api` answers the calls). */
export async function renderApp(
  path: string,
  {
    auth = fakeAuthService(),
    locale = 'en_gb',
    api = fakeApiClient(defaultApiRoutes()),
    i18n: givenI18n,
  }: { auth?: AuthService; locale?: Locale; api?: ApiClient; i18n?: I18n } = {},
) {
  const i18n = givenI18n ?? (await createI18n(locale))
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const Providers = sessionWrapper({ i18n, queryClient, api, auth })
  const view = render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  )
  return { ...view, router, auth, i18n, queryClient }
}

/** Renders `element` inside the app's providers (English, a fake sign-in, no query retries), the API answering from `routes`; returns the fake API. */
export async function renderWithApi(element: ReactNode, routes: Record<string, unknown>) {
  const api = fakeApiClient(routes)
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const Wrapper = sessionWrapper({ i18n: await createI18n('en_gb'), queryClient, api })
  render(<Wrapper>{element}</Wrapper>)
  return api
}

import CssBaseline from '@mui/material/CssBaseline'
import { ThemeProvider } from '@mui/material/styles'
import type { ClientConfig } from '@pactum/contracts/client-config'
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { Translator as I18n } from '../i18n/translator.ts'
import type { ReactNode } from 'react'
import { TranslationProvider } from '../i18n/react.tsx'
import { InvalidFormSnackbarProvider } from '../components/invalid-form-snackbar.tsx'
import { MessageDialogProvider } from '../components/message-dialog.tsx'
import { ResultModalProvider } from '../components/result-modal.tsx'
import { ToastProvider } from '../components/toasts.tsx'
import type { ApiClient } from '../lib/api/api-client.ts'
import { ApiClientProvider } from '../lib/api/api-client-context.tsx'
import { AuthProvider } from '../lib/auth/auth-context.tsx'
import type { AuthService } from '../lib/auth/auth-service.ts'
import { ClientConfigProvider } from '../lib/client-config-context.tsx'
import { theme } from './theme.ts'

/** What every screen needs, even before the configuration has arrived. */
export function BaseProviders({ i18n, queryClient, children }: { i18n: I18n; queryClient: QueryClient; children: ReactNode }) {
  return (
    <TranslationProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          {children}
        </ThemeProvider>
      </QueryClientProvider>
    </TranslationProvider>
  )
}

/** Configuration, session, API and the shell's shared dialogs. Tests pass a fake `auth`. */
export function SessionProviders({
  config,
  auth,
  apiClient,
  children,
}: {
  config: ClientConfig
  auth: AuthService
  apiClient?: ApiClient
  children: ReactNode
}) {
  return (
    <ClientConfigProvider config={config}>
      <AuthProvider service={auth}>
        <ApiClientProvider client={apiClient}>
          <ResultModalProvider>
            <MessageDialogProvider>
              <InvalidFormSnackbarProvider>
                <ToastProvider>{children}</ToastProvider>
              </InvalidFormSnackbarProvider>
            </MessageDialogProvider>
          </ResultModalProvider>
        </ApiClientProvider>
      </AuthProvider>
    </ClientConfigProvider>
  )
}

import { QueryClient } from '@tanstack/react-query'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app.tsx'
import { clientConfigQuery } from './lib/client-config-query.ts'
import { recoverWhileUnreachable } from './lib/api/recover-while-unreachable.ts'
import { createI18n } from './i18n/i18n.ts'
import { pickInitialLocale } from './i18n/initial-locale.ts'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchInterval: recoverWhileUnreachable() } } })
// Asked for while the dictionary loads, so the first render already has it (index.html preloads it).
void queryClient.prefetchQuery(clientConfigQuery)

createI18n(pickInitialLocale(document.cookie, navigator.languages), { rest: 'later' }).then((i18n) => {
  // As a transition, the first render yields to the browser every few milliseconds instead of holding it in one long task.
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App i18n={i18n} queryClient={queryClient} />
      </StrictMode>,
    ),
  )
})

import { createContext, lazy, type ReactNode, useCallback, useContext, useMemo, useState } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { invalidFormSnackbarMs } from '../lib/constants.ts'
import { Deferred } from './deferred.tsx'

// The snackbar itself is fetched the first time something is shown.
const DismissibleSnackbar = lazy(() => import('./dismissible-snackbar.tsx').then((module) => ({ default: module.DismissibleSnackbar })))

export interface InvalidFormSnackbarApi {
  /** Shows `message` (default: the generic invalid-form text) for `durationMs` (default 4 s). */
  show: (message?: string, durationMs?: number) => void
}

const InvalidFormSnackbarContext = createContext<InvalidFormSnackbarApi | null>(null)

export function InvalidFormSnackbarProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  // `key` restarts the auto-close timer when the same message is shown again.
  const [state, setState] = useState<{ key: number; message?: string; durationMs: number; open: boolean }>({
    key: 0,
    durationMs: invalidFormSnackbarMs,
    open: false,
  })

  const show = useCallback((message?: string, durationMs = invalidFormSnackbarMs) => {
    setState((current) => ({ key: current.key + 1, message, durationMs, open: true }))
  }, [])
  const close = useCallback(() => setState((current) => ({ ...current, open: false })), [])
  const api = useMemo(() => ({ show }), [show])

  return (
    <InvalidFormSnackbarContext value={api}>
      {children}
      <Deferred when={state.open}>
        <DismissibleSnackbar
          showKey={state.key}
          open={state.open}
          durationMs={state.durationMs}
          vertical="bottom"
          severity="error"
          message={state.message ?? t('feedback.invalidForm')}
          onClose={close}
          testId="invalid-form-snackbar"
        />
      </Deferred>
    </InvalidFormSnackbarContext>
  )
}

export function useInvalidFormSnackbar(): InvalidFormSnackbarApi {
  const api = useContext(InvalidFormSnackbarContext)
  if (!api) throw new Error('useInvalidFormSnackbar needs an <InvalidFormSnackbarProvider>')
  return api
}

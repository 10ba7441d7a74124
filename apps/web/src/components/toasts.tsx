import { createContext, lazy, type ReactNode, useCallback, useContext, useMemo, useState } from 'react'
import { toastDefaultMs } from '../lib/constants.ts'
import { Deferred } from './deferred.tsx'

// The snackbar itself is fetched the first time something is shown.
const DismissibleSnackbar = lazy(() => import('./dismissible-snackbar.tsx').then((module) => ({ default: module.DismissibleSnackbar })))

export type ToastSeverity = 'success' | 'info' | 'warning' | 'error'

export interface ToastApi {
  /** A short message at the bottom of the screen, gone after `durationMs` (default 3 s). */
  show: (message: string, options?: { severity?: ToastSeverity; durationMs?: number }) => void
}

const ToastContext = createContext<ToastApi | null>(null)

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<{
    key: number
    message: string
    severity: ToastSeverity
    durationMs: number
    open: boolean
  }>({ key: 0, message: '', severity: 'info', durationMs: toastDefaultMs, open: false })

  const show = useCallback<ToastApi['show']>((message, options) => {
    setToast((current) => ({
      key: current.key + 1,
      message,
      severity: options?.severity ?? 'info',
      durationMs: options?.durationMs ?? toastDefaultMs,
      open: true,
    }))
  }, [])
  const close = useCallback(() => setToast((current) => ({ ...current, open: false })), [])
  const api = useMemo(() => ({ show }), [show])

  return (
    <ToastContext value={api}>
      {children}
      <Deferred when={toast.open}>
        <DismissibleSnackbar
          showKey={toast.key}
          open={toast.open}
          durationMs={toast.durationMs}
          vertical="top"
          severity={toast.severity}
          message={toast.message}
          onClose={close}
        />
      </Deferred>
    </ToastContext>
  )
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext)
  if (!api) throw new Error('useToast needs a <ToastProvider>')
  return api
}

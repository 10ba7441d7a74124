import CloseIcon from '@mui/icons-material/Close'
import Alert from '@mui/material/Alert'
import IconButton from '@mui/material/IconButton'
import Snackbar from '@mui/material/Snackbar'
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toastDefaultMs } from '../lib/constants.ts'

export type ToastSeverity = 'success' | 'info' | 'warning' | 'error'

export interface ToastApi {
  /** A short message at the bottom of the screen, gone after `durationMs` (default 3 s). */
  show: (message: string, options?: { severity?: ToastSeverity; durationMs?: number }) => void
}

const ToastContext = createContext<ToastApi | null>(null)

export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
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
      <Snackbar
        key={toast.key}
        open={toast.open}
        autoHideDuration={toast.durationMs}
        onClose={(_, reason) => {
          if (reason !== 'clickaway') close()
        }}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        <Alert
          severity={toast.severity}
          variant="filled"
          action={
            <IconButton aria-label={t('feedback.dismiss')} color="inherit" size="small" onClick={close}>
              <CloseIcon fontSize="small" />
            </IconButton>
          }
        >
          {toast.message}
        </Alert>
      </Snackbar>
    </ToastContext>
  )
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext)
  if (!api) throw new Error('useToast needs a <ToastProvider>')
  return api
}

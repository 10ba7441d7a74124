import CloseIcon from '@mui/icons-material/Close'
import Alert from '@mui/material/Alert'
import IconButton from '@mui/material/IconButton'
import Snackbar from '@mui/material/Snackbar'
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { invalidFormSnackbarMs } from '../lib/constants.ts'

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
      <Snackbar
        key={state.key}
        open={state.open}
        autoHideDuration={state.durationMs}
        onClose={(_, reason) => {
          if (reason !== 'clickaway') close()
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert
          severity="error"
          variant="filled"
          data-testid="invalid-form-snackbar"
          action={
            <IconButton aria-label={t('feedback.dismiss')} color="inherit" size="small" onClick={close}>
              <CloseIcon fontSize="small" />
            </IconButton>
          }
        >
          {state.message ?? t('feedback.invalidForm')}
        </Alert>
      </Snackbar>
    </InvalidFormSnackbarContext>
  )
}

export function useInvalidFormSnackbar(): InvalidFormSnackbarApi {
  const api = useContext(InvalidFormSnackbarContext)
  if (!api) throw new Error('useInvalidFormSnackbar needs an <InvalidFormSnackbarProvider>')
  return api
}

import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined'
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Typography from '@mui/material/Typography'
import { createContext, type ReactNode, useCallback, useContext, useEffect, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'

export interface ResultModalOptions {
  /** Close on its own after this long (the spec's 1 s error flashes, for example). */
  autoCloseMs?: number
  onClose?: () => void
}

export interface ResultModalApi {
  showSuccess: (message: string, options?: ResultModalOptions) => void
  showError: (message: string, options?: ResultModalOptions) => void
  close: () => void
}

interface ResultState extends ResultModalOptions {
  kind: 'success' | 'error'
  message: string
}

const ResultModalContext = createContext<ResultModalApi | null>(null)

/** The full-screen 'Success!' / 'Error!' modal of the shell (spec §2). */
export function ResultModalProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const titleId = useId()
  const [result, setResult] = useState<ResultState | null>(null)

  const resultRef = useRef<ResultState | null>(null)
  const open = useCallback((next: ResultState | null) => {
    resultRef.current = next
    setResult(next)
  }, [])
  const close = useCallback(() => {
    const closing = resultRef.current
    open(null)
    closing?.onClose?.()
  }, [open])

  useEffect(() => {
    if (!result?.autoCloseMs) return
    const timer = setTimeout(close, result.autoCloseMs)
    return () => clearTimeout(timer)
  }, [result, close])

  const api = useMemo<ResultModalApi>(
    () => ({
      showSuccess: (message, options) => open({ kind: 'success', message, ...options }),
      showError: (message, options) => open({ kind: 'error', message, ...options }),
      close,
    }),
    [open, close],
  )

  const success = result?.kind === 'success'
  const Icon = success ? CheckCircleOutlineIcon : ErrorOutlineIcon
  return (
    <ResultModalContext value={api}>
      {children}
      <Dialog fullScreen open={result !== null} onClose={close} aria-labelledby={titleId}>
        <DialogContent
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2 }}
        >
          <Icon aria-hidden sx={{ fontSize: 96, color: success ? 'success.main' : 'error.main' }} />
          <DialogTitle id={titleId} component="h2" variant="h4" sx={{ p: 0 }}>
            {success ? t('feedback.success') : t('feedback.error')}
          </DialogTitle>
          <Typography sx={{ maxWidth: 480, textAlign: 'center' }}>{result?.message}</Typography>
          <DialogActions>
            <Button variant="contained" size="large" onClick={close} autoFocus>
              {success ? t('feedback.continue') : t('feedback.close')}
            </Button>
          </DialogActions>
        </DialogContent>
      </Dialog>
    </ResultModalContext>
  )
}

export function useResultModal(): ResultModalApi {
  const api = useContext(ResultModalContext)
  if (!api) throw new Error('useResultModal needs a <ResultModalProvider>')
  return api
}

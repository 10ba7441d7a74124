import CloseIcon from '@mui/icons-material/Close'
import Alert, { type AlertColor } from '@mui/material/Alert'
import IconButton from '@mui/material/IconButton'
import Snackbar from '@mui/material/Snackbar'
import { useTranslation } from '../i18n/react.tsx'

export interface DismissibleSnackbarProps {
  /** A new key restarts the auto-close timer when the same message is shown again. */
  showKey: number
  open: boolean
  durationMs: number
  vertical: 'top' | 'bottom'
  severity: AlertColor
  message: string
  onClose: () => void
  testId?: string
}

/** A filled alert at the edge of the screen with a close button: the view of the toasts and the invalid-form snackbar. */
export function DismissibleSnackbar({ showKey, open, durationMs, vertical, severity, message, onClose, testId }: DismissibleSnackbarProps) {
  const { t } = useTranslation()
  return (
    <Snackbar
      key={showKey}
      open={open}
      autoHideDuration={durationMs}
      onClose={(_, reason) => {
        if (reason !== 'clickaway') onClose()
      }}
      anchorOrigin={{ vertical, horizontal: 'center' }}
    >
      <Alert
        severity={severity}
        // News that something worked waits for the screen reader to finish (polite); a problem interrupts.
        role={severity === 'success' || severity === 'info' ? 'status' : 'alert'}
        variant="filled"
        data-testid={testId}
        action={
          <IconButton aria-label={t('feedback.dismiss')} color="inherit" size="small" onClick={onClose}>
            <CloseIcon fontSize="small" />
          </IconButton>
        }
      >
        {message}
      </Alert>
    </Snackbar>
  )
}

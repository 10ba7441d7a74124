import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined'
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined'
import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import Typography from '@mui/material/Typography'
import { useEffect, useId } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import type { ResultState } from './result-modal.tsx'

/** The full-screen 'Success!' / 'Error!' modal; ResultModalProvider owns its state. */
export function ResultDialog({ result, onClose }: { result: ResultState | null; onClose: () => void }) {
  const { t } = useTranslation()
  const titleId = useId()
  const success = result?.kind === 'success'
  const Icon = success ? CheckCircleOutlineIcon : ErrorOutlineIcon
  // Counted from when the message is on screen, not from when it was asked for: the first one waits for
  // this chunk and the complete dictionary, which on a slow line takes longer than a message stays up.
  useEffect(() => {
    if (!result?.autoCloseMs) return
    const timer = setTimeout(onClose, result.autoCloseMs)
    return () => clearTimeout(timer)
  }, [result, onClose])
  return (
    <Dialog fullScreen open={result !== null} onClose={onClose} aria-labelledby={titleId}>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2 }}>
        <Icon aria-hidden sx={{ fontSize: 96, color: success ? 'success.main' : 'error.main' }} />
        <DialogTitle id={titleId} component="h2" variant="h4" sx={{ p: 0 }}>
          {success ? t('feedback.success') : t('feedback.error')}
        </DialogTitle>
        <Typography sx={{ maxWidth: 480, textAlign: 'center' }}>{result?.message}</Typography>
        <DialogActions>
          <Button variant="contained" size="large" onClick={onClose} autoFocus>
            {success ? t('feedback.continue') : t('feedback.close')}
          </Button>
        </DialogActions>
      </DialogContent>
    </Dialog>
  )
}

import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import { useId } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import type { MessageDialogContent } from './message-dialog.tsx'

/** The dialog with an OK button; MessageDialogProvider owns its state. */
export function MessageDialogView({ content, onClose }: { content: MessageDialogContent | null; onClose: () => void }) {
  const { t } = useTranslation()
  const titleId = useId()
  const bodyId = useId()
  return (
    <Dialog open={content !== null} onClose={onClose} aria-labelledby={titleId} aria-describedby={bodyId}>
      <DialogTitle id={titleId}>{content?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>{content?.message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose} autoFocus>
          {t('feedback.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

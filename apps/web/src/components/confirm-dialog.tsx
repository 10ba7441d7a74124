import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import { type FormEvent, type ReactNode, useId } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { BusyButton } from './busy-button.tsx'

export interface ConfirmDialogProps {
  open: boolean
  title: string
  body?: ReactNode
  /** Form fields; the dialog is a form, so Enter in a field confirms. */
  children?: ReactNode
  confirmLabel: string
  cancelLabel?: string
  busy?: boolean
  /** Confirming is not possible yet (something it needs is still loading); going back still is. */
  confirmDisabled?: boolean
  destructive?: boolean
  onConfirm: () => void
  onClose: () => void
  testId?: string
}

/** The confirmation step every transaction action goes through. */
export function ConfirmDialog({
  open,
  title,
  body,
  children,
  confirmLabel,
  cancelLabel,
  busy,
  confirmDisabled,
  destructive,
  onConfirm,
  onClose,
  testId,
}: ConfirmDialogProps) {
  const { t } = useTranslation()
  const titleId = useId()
  const bodyId = useId()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!busy && !confirmDisabled) onConfirm()
  }
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={body ? bodyId : undefined}
      fullWidth
      maxWidth="sm"
      data-testid={testId}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {/* The form sits inside the dialog (a form may not carry role="dialog"); display: contents keeps MUI's layout. */}
      <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
        <DialogContent>
          {body && (
            <DialogContentText id={bodyId} component="div" sx={{ mb: children ? 2 : 0 }}>
              {body}
            </DialogContentText>
          )}
          {children}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
          <Button onClick={onClose} disabled={busy}>
            {cancelLabel ?? t('common.back')}
          </Button>
          <BusyButton
            type="submit"
            variant="contained"
            color={destructive ? 'error' : 'primary'}
            disabled={confirmDisabled}
            busy={busy ?? false}
            data-testid={testId ? `${testId}-confirm` : undefined}
          >
            {confirmLabel}
          </BusyButton>
        </DialogActions>
      </form>
    </Dialog>
  )
}

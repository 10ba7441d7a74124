import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import { type FormEvent, type ReactNode, useId } from 'react'
import { BusyButton } from '../../components/busy-button.tsx'
import { TermsAgreement } from './terms-agreement.tsx'

export interface TermsDialogProps {
  open: boolean
  title: string
  intro: string
  /** Fields asked before the terms (the country); none when only the terms are asked. */
  children?: ReactNode
  agreed: boolean
  agreementError: string | undefined
  onAgreedChange: (checked: boolean) => void
  busy: boolean
  /** Everything asked is answered: the submit button is enabled. */
  ready: boolean
  submitLabel: string
  onSubmit: () => void | Promise<void>
  testId: string
  submitTestId: string
}

/**
 * A blocking onboarding dialog that ends with agreeing to the terms (spec §2):
 * no way to close it but submitting, and one submit at a time.
 */
export function TermsDialog({
  open,
  title,
  intro,
  children,
  agreed,
  agreementError,
  onAgreedChange,
  busy,
  ready,
  submitLabel,
  onSubmit,
  testId,
  submitTestId,
}: TermsDialogProps) {
  const titleId = useId()
  const introId = useId()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!busy) void onSubmit()
  }
  return (
    <Dialog open={open} aria-labelledby={titleId} aria-describedby={introId} fullWidth maxWidth="sm" data-testid={testId}>
      <DialogTitle id={titleId} component="h2">
        {title}
      </DialogTitle>
      {/* The form sits inside the dialog (a form may not carry role="dialog"); display: contents keeps MUI's layout. */}
      <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
        <DialogContent>
          <DialogContentText id={introId} sx={{ mb: children ? 2 : 0 }}>
            {intro}
          </DialogContentText>
          {children}
          <TermsAgreement checked={agreed} disabled={busy} error={agreementError} onChange={onAgreedChange} />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <BusyButton type="submit" variant="contained" disabled={!ready} busy={busy} data-testid={submitTestId}>
            {submitLabel}
          </BusyButton>
        </DialogActions>
      </form>
    </Dialog>
  )
}

import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import { useId } from 'react'
import { useTranslation } from '../../i18n/react.tsx'

/** Stands in for the bank-link provider's screen in the sandbox (POST /sandbox/plaid/link/{token}/complete). */
export function SandboxLinkDialog({
  open,
  busy,
  onChoose,
  onCancel,
}: {
  open: boolean
  busy: boolean
  onChoose: (institution: 'success' | 'failure') => void
  onCancel: () => void
}) {
  const { t } = useTranslation()
  const titleId = useId()
  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} aria-labelledby={titleId} data-testid="sandbox-link-dialog">
      <DialogTitle id={titleId}>{t('profile.bankDetails.sandbox.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('profile.bankDetails.sandbox.body')}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onCancel} disabled={busy}>
          {t('profile.bankDetails.cancel')}
        </Button>
        <Button color="error" onClick={() => onChoose('failure')} disabled={busy} data-testid="sandbox-link-failure">
          {t('profile.bankDetails.sandbox.fail')}
        </Button>
        <Button variant="contained" onClick={() => onChoose('success')} disabled={busy} data-testid="sandbox-link-success">
          {t('profile.bankDetails.sandbox.link')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

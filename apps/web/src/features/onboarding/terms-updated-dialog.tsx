import Button from '@mui/material/Button'
import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogContentText from '@mui/material/DialogContentText'
import DialogTitle from '@mui/material/DialogTitle'
import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useInvalidFormSnackbar } from '../../components/invalid-form-snackbar.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { onboardingFlashMs } from './country-terms-dialog.tsx'
import { acceptTermsDirect } from './onboarding-api.ts'
import { TermsAgreement } from './terms-agreement.tsx'

/** Spec §2/§8: blocking until the person agrees to the updated terms (POST /me/accept_tos_direct). */
export function TermsUpdatedDialog({ open }: { open: boolean }) {
  const { t } = useTranslation()
  const api = useApiClient()
  const queryClient = useQueryClient()
  const snackbar = useInvalidFormSnackbar()
  const resultModal = useResultModal()
  const titleId = useId()
  const bodyId = useId()
  const [agreed, setAgreed] = useState(false)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    if (!agreed) {
      setError(t('onboarding.validation.mustAgree'))
      snackbar.show(undefined, onboardingFlashMs)
      return
    }
    setBusy(true)
    try {
      await acceptTermsDirect(api)
      await queryClient.invalidateQueries({ queryKey: ['me'] })
    } catch (failure) {
      resultModal.showError(errorMessage(t, failure), { autoCloseMs: onboardingFlashMs })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog
      open={open}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      fullWidth
      maxWidth="sm"
      data-testid="terms-updated-dialog"
    >
      <DialogTitle id={titleId} component="h2">
        {t('onboarding.termsUpdated.title')}
      </DialogTitle>
      <form onSubmit={(event) => void submit(event)} noValidate style={{ display: 'contents' }}>
        <DialogContent>
          <DialogContentText id={bodyId}>{t('onboarding.termsUpdated.body')}</DialogContentText>
          <TermsAgreement
            checked={agreed}
            disabled={busy}
            error={error}
            onChange={(checked) => {
              setAgreed(checked)
              setError(checked ? undefined : t('onboarding.validation.mustAgree'))
            }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button
            type="submit"
            variant="contained"
            disabled={!agreed || busy}
            loading={busy}
            loadingPosition="start"
            data-testid="terms-updated-submit"
          >
            {t('onboarding.termsUpdated.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  )
}

import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useInvalidFormSnackbar } from '../../components/invalid-form-snackbar.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { onboardingFlashMs } from './country-terms-dialog.tsx'
import { acceptTermsDirect } from './onboarding-api.ts'
import { TermsDialog } from './terms-dialog.tsx'

/** Spec §2/§8: blocking until the person agrees to the updated terms (POST /me/accept_tos_direct). */
export function TermsUpdatedDialog({ open }: { open: boolean }) {
  const { t } = useTranslation()
  const api = useApiClient()
  const queryClient = useQueryClient()
  const snackbar = useInvalidFormSnackbar()
  const resultModal = useResultModal()
  const [agreed, setAgreed] = useState(false)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)

  const submit = async () => {
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
    <TermsDialog
      open={open}
      title={t('onboarding.termsUpdated.title')}
      intro={t('onboarding.termsUpdated.body')}
      agreed={agreed}
      agreementError={error}
      onAgreedChange={(checked) => {
        setAgreed(checked)
        setError(checked ? undefined : t('onboarding.validation.mustAgree'))
      }}
      busy={busy}
      ready={agreed}
      submitLabel={t('onboarding.termsUpdated.submit')}
      onSubmit={submit}
      testId="terms-updated-dialog"
      submitTestId="terms-updated-submit"
    />
  )
}

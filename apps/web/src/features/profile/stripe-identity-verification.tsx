import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined'
import VerifiedUserIcon from '@mui/icons-material/VerifiedUserOutlined'
import Alert from '@mui/material/Alert'
import AlertTitle from '@mui/material/AlertTitle'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { VerificationStatus } from '@pactum/contracts/verification'
import { useTranslation } from '../../i18n/react.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { useStartVerificationSession, useVerificationStatus } from './identity-api.ts'
import { Busy, LoadFailed } from './identity-load-states.tsx'
import { BusyButton } from '../../components/busy-button.tsx'

function StripeState({ status }: { status: VerificationStatus }) {
  const { t } = useTranslation()
  if (status.verified || status.verification_session_status === 'verified') {
    return (
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }} data-testid="identity-verified">
        <CheckCircleOutlineIcon aria-hidden color="success" />
        <Typography>{t('identity.stripe.verified')}</Typography>
      </Stack>
    )
  }
  if (status.verification_session_status === 'processing') {
    return <Busy label={t('identity.stripe.processing')} testId="identity-processing" />
  }
  if (status.verification_session_status === 'requires_input' && status.message) {
    return (
      <Alert severity="warning" data-testid="identity-failed">
        <AlertTitle>{t('identity.stripe.failedTitle')}</AlertTitle>
        {status.message}
      </Alert>
    )
  }
  if (status.verification_session_status === 'canceled') {
    return <Typography data-testid="identity-canceled">{t('identity.stripe.canceled')}</Typography>
  }
  return null
}

/** The provider's hosted verification: its status here, the session itself on the provider's page. */
export function StripeIdentityVerification() {
  const { t } = useTranslation()
  const status = useVerificationStatus()
  const session = useStartVerificationSession()

  if (status.isPending) return <Busy label={t('identity.loading')} />
  if (status.isError) {
    return <LoadFailed label={t('identity.loadFailed')} onRetry={() => void status.refetch()} testId="identity-error" />
  }
  const done = status.data.verified || status.data.verification_session_status === 'verified'
  const processing = status.data.verification_session_status === 'processing'
  // After success the browser is leaving for the provider's page: keep the button busy until it does.
  const opening = session.isPending || session.isSuccess
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }} data-testid="identity-stripe">
      {!done && <Typography color="text.secondary">{t('identity.stripe.intro')}</Typography>}
      <StripeState status={status.data} />
      {!done && !processing && (
        <BusyButton
          variant="contained"
          busy={opening}
          startIcon={<VerifiedUserIcon aria-hidden />}
          onClick={() => session.mutate()}
          data-testid="identity-start"
        >
          {opening ? t('identity.stripe.opening') : t('identity.stripe.start')}
        </BusyButton>
      )}
      {session.isError && (
        <Alert severity="error" data-testid="identity-start-error">
          {errorMessage(t, session.error)}
        </Alert>
      )}
    </Stack>
  )
}

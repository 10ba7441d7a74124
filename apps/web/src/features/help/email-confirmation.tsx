import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { useClientConfig } from '../../lib/client-config-context.tsx'
import { useResendEmailConfirmation } from '../../lib/api/email-confirmation.ts'

/**
 * Whether the sign-in has confirmed the person's e-mail address (the ID
 * token's `email_verified`), and, with the embedded sign-in, a way to have
 * the link sent again. An issuer that says nothing gets nothing shown.
 */
export function EmailConfirmation({ verified }: { verified: boolean | undefined }) {
  const { t } = useTranslation()
  const { oidc } = useClientConfig()
  const resend = useResendEmailConfirmation()

  if (verified === true) {
    return (
      <Chip
        size="small"
        color="success"
        variant="outlined"
        label={t('help.account.emailConfirmation.confirmed')}
        data-testid="email-confirmed"
      />
    )
  }
  if (verified === undefined && !oidc.supports_email_confirmation) return null
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="email-not-confirmed">
      {/* Orange text on white is too faint to read: the icon carries the colour, the label stays dark. */}
      <Chip
        size="small"
        variant="outlined"
        icon={<ErrorOutlineIcon color="warning" aria-hidden />}
        label={t('help.account.emailConfirmation.notConfirmed')}
      />
      {oidc.supports_email_confirmation && (
        <>
          <Typography variant="body2" color="text.secondary">
            {t('help.account.emailConfirmation.hint')}
          </Typography>
          <Button
            variant="outlined"
            size="small"
            onClick={() => resend.mutate()}
            loading={resend.isPending}
            disabled={resend.isSuccess}
            data-testid="resend-email-confirmation"
          >
            {t('help.account.emailConfirmation.resend')}
          </Button>
        </>
      )}
      {resend.isSuccess && (
        <Alert severity="success" role="status" data-testid="email-confirmation-sent">
          {t('help.account.emailConfirmation.sent', { email: resend.data.email })}
        </Alert>
      )}
      {resend.isError && (
        <Alert severity="error" role="alert" data-testid="email-confirmation-error">
          {errorMessage(t, resend.error)}
        </Alert>
      )}
    </Stack>
  )
}

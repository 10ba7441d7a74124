import Alert from '@mui/material/Alert'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { TFunction } from '../../i18n/translator.ts'
import { useTranslation } from '../../i18n/react.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { ApiError } from '../../lib/api/api-error.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { useTransactionAction } from './transactions-api.ts'
import { BusyButton } from '../../components/busy-button.tsx'

/** A refused re-send, said precisely: too soon after the last one, or sent too often. */
function resendError(t: TFunction, error: unknown): string {
  if (error instanceof ApiError && error.code === 'rate_limited') {
    if (error.details.reason === 'too_soon') return t('guestInvitation.status.tooSoon')
    if (error.details.reason === 'too_many') return t('guestInvitation.status.tooMany')
  }
  return errorMessage(t, error)
}

/**
 * The creator's unclaimed e-mail invitation (issue 12 leftovers): to whom
 * and when it went, until when its link works, and a way to send it again
 * with a new link when `available_actions` offers `resend_invitation`. The
 * server sends `invitation` to the creator only, and only until it is
 * claimed; after that the sale reads as any other.
 */
export function InvitationCard({ transaction }: { transaction: AnyTransaction }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const toast = useToast()
  const resend = useTransactionAction(transaction.id, transaction.type)
  const invitation = transaction.invitation
  if (!invitation || transaction.status !== 'created') return null
  const expired = Date.parse(invitation.expires_at) <= Date.now()
  // The server offers the re-send (available_actions) while the invitation is its creator's to send again.
  const mayResend = (transaction.available_actions as readonly string[]).includes('resend_invitation')
  const onResend = () =>
    resend.mutate(
      { action: 'resend_invitation' },
      { onSuccess: () => toast.show(t('guestInvitation.status.resent', { email: invitation.email }), { severity: 'success' }) },
    )
  return (
    <ContentCard testId="status-invitation">
      <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <Typography component="h2" variant="h6">
          {t('guestInvitation.status.heading')}
        </Typography>
        <Typography data-testid="invitation-sent" sx={{ overflowWrap: 'anywhere' }}>
          {t('guestInvitation.status.sentTo', { email: invitation.email, date: formatDateTime(invitation.sent_at, locale) })}
        </Typography>
        {expired ? (
          <Alert severity="warning" data-testid="invitation-expires" sx={{ alignSelf: 'stretch' }}>
            {t('guestInvitation.status.expired', { email: invitation.email, date: formatDateTime(invitation.expires_at, locale) })}
          </Alert>
        ) : (
          <Typography color="text.secondary" data-testid="invitation-expires">
            {t('guestInvitation.status.expires', { date: formatDateTime(invitation.expires_at, locale) })}
          </Typography>
        )}
        {mayResend && (
          <>
            <Typography color="text.secondary">{t('guestInvitation.status.resendHint')}</Typography>
            {resend.isError && (
              <Alert severity="error" role="alert" data-testid="invitation-resend-error" sx={{ alignSelf: 'stretch' }}>
                {resendError(t, resend.error)}
              </Alert>
            )}
            <BusyButton variant="outlined" onClick={onResend} busy={resend.isPending} data-testid="invitation-resend">
              {t('guestInvitation.status.resend')}
            </BusyButton>
          </>
        )}
      </Stack>
    </ContentCard>
  )
}

import ArrowForwardIcon from '@mui/icons-material/ArrowForward'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { RefObject } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { JoinCodeShare } from '../../components/join-code-share.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { routeTo } from '../../lib/named-routes.ts'

/** After creating: the code to give the other party (or the address invited instead), and the way to the status page. */
export function CreatedTransaction({
  transaction,
  headingRef,
  invitedEmail = null,
}: {
  transaction: AnyTransaction
  headingRef: RefObject<HTMLHeadingElement | null>
  invitedEmail?: string | null
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  // The server's record of the invitation, when it sent one; the form's own note of the address otherwise.
  const invitation = transaction.invitation ?? null
  const email = invitation?.email ?? invitedEmail
  return (
    <Stack spacing={3}>
      <div>
        <Typography component="h2" variant="h5" ref={headingRef} tabIndex={-1} sx={{ outline: 'none', fontWeight: 700 }}>
          {t('createTransaction.created.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {email
            ? t('guestClaim.create.invitedBody')
            : t(
                `createTransaction.created.${transaction.type === 'f2f' ? 'f2f' : 'online'}.${transaction.role === 'seller' ? 'bodySeller' : 'bodyBuyer'}`,
              )}
        </Typography>
      </div>
      {email ? (
        <Alert severity="success" data-testid="created-invited">
          {t('guestClaim.create.invited', { email })}
          {invitation && (
            <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="created-invitation-expires">
              {t('guestInvitation.create.expires', { date: formatDateTime(invitation.expires_at, locale) })}
            </Typography>
          )}
        </Alert>
      ) : (
        transaction.join_code && <JoinCodeShare code={transaction.join_code} testId="created-join-code" />
      )}
      {transaction.type === 'f2f' ? (
        <AmountSummary
          part="deposit"
          price={transaction.deposit_pricing.price}
          charge={transaction.deposit_pricing.charge}
          currency={transaction.currency}
        />
      ) : (
        <AmountSummary price={transaction.price} charge={transaction.charge} currency={transaction.currency} />
      )}
      <div>
        <Button
          component={RouterLink}
          to={routeTo('status', { id: transaction.id })}
          variant="contained"
          endIcon={<ArrowForwardIcon aria-hidden />}
          data-testid="go-to-status"
        >
          {t('createTransaction.created.viewStatus')}
        </Button>
      </div>
    </Stack>
  )
}

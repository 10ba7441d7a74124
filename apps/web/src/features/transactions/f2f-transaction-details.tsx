import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import CircularProgress from '@mui/material/CircularProgress'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { creatorCancellationDescription, type F2fTransaction } from '@pactum/contracts/f2f-transactions'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { JoinCodeShare } from '../../components/join-code-share.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatMoney } from '../../lib/money.ts'
import { DeadlineCountdown } from './deadline-countdown.tsx'
import { F2fActions, f2fButtonsFor } from './f2f-actions.tsx'
import { StatusChip } from './status-chip.tsx'
import { TransactionTimeline } from './transaction-timeline.tsx'

/** The status page of a face-to-face sale: the deposit, the remainder, the handover and what comes next. */
export function F2fTransactionDetails({ transaction, reference, refreshing }: { transaction: F2fTransaction; reference: ReactNode; refreshing: boolean }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const role = transaction.role
  const actions = f2fButtonsFor(transaction.available_actions)
  const remainder = transaction.pricing ? transaction.pricing.price - transaction.deposit_pricing.price : null
  const windowOpen =
    transaction.complaint_period_deadline !== null &&
    (transaction.status === 'seller_handover_confirmed' || transaction.status === 'buyer_handover_confirmed')

  return (
    <>
      <ContentCard testId="transaction-summary">
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}>
            <Typography component="h2" variant="h5" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }} data-testid="transaction-description">
              {transaction.description}
            </Typography>
            <Box sx={{ flexShrink: 0 }}>
              <StatusChip status={transaction.status} />
            </Box>
          </Stack>
          <Typography color="text.secondary" data-testid="transaction-role">
            {role ? t(`transactionStatus.yourRole.${role}`) : t('roles.none')} · {t('transactionStatus.f2f.kind')}
          </Typography>
          <Box data-testid="deposit-amounts">
            <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
              {t('transactionStatus.f2f.deposit')}
            </Typography>
            <AmountSummary price={transaction.deposit_pricing.price} charge={transaction.deposit_pricing.charge} currency={transaction.currency} />
          </Box>
          {transaction.pricing && remainder !== null && (
            <Box data-testid="remainder-amounts">
              <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                {t('transactionStatus.f2f.remainder', { total: formatMoney(transaction.pricing.price, transaction.currency, locale) })}
              </Typography>
              <AmountSummary price={remainder} charge={transaction.pricing.charge} currency={transaction.currency} />
            </Box>
          )}
          {transaction.status === 'remainder_skipped' && (
            <Typography color="text.secondary" data-testid="remainder-skipped">
              {t('transactionStatus.f2f.remainderSkipped')}
            </Typography>
          )}
          {(transaction.amount_refunded > 0 || transaction.amount_released > 0) && (
            <Typography sx={{ fontWeight: 600 }} data-testid="settled-amount">
              {transaction.amount_refunded > 0
                ? t('transactionStatus.f2f.refunded', { amount: formatMoney(transaction.amount_refunded, transaction.currency, locale) })
                : t('transactionStatus.f2f.released', { amount: formatMoney(transaction.amount_released, transaction.currency, locale) })}
            </Typography>
          )}
          {transaction.payment_method && (
            <Typography variant="body2" color="text.secondary">
              {t('transactionStatus.paymentMethod', { method: t(`paymentMethods.${transaction.payment_method}`) })}
            </Typography>
          )}
          <Typography data-testid="status-explanation">{t(`transactionStatus.explainF2f.${explanationKey(transaction)}.${role ?? 'buyer'}`)}</Typography>
          {transaction.is_payment_in_progress && (
            <Alert severity="info" icon={<CircularProgress size={18} aria-hidden />} data-testid="payment-in-progress">
              {t('transactionStatus.paymentInProgress')}
            </Alert>
          )}
          {refreshing && (
            <Typography variant="caption" color="text.secondary" role="status">
              {t('transactionStatus.refreshing')}
            </Typography>
          )}
          {reference}
        </Stack>
      </ContentCard>

      {transaction.status === 'created' && transaction.join_code && (
        <ContentCard testId="status-join-code">
          <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
            {t('transactionStatus.shareHeading')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('transactionStatus.shareBody')}
          </Typography>
          <JoinCodeShare code={transaction.join_code} testId="status-join-code-value" />
        </ContentCard>
      )}

      {(actions.length > 0 || windowOpen) && (
        <ContentCard testId="next-steps">
          <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
            {t('transactionStatus.nextSteps')}
          </Typography>
          <Stack spacing={2}>
            {windowOpen && transaction.complaint_period_deadline && (
              <DeadlineCountdown
                deadline={transaction.complaint_period_deadline}
                runningKey="transactionStatus.deadlines.complaint"
                passedKey="transactionStatus.deadlines.complaintPassed"
                testId="complaint-deadline"
              />
            )}
            {actions.length > 0 && <F2fActions transaction={transaction} actions={actions} />}
          </Stack>
        </ContentCard>
      )}

      {(transaction.complaint || transaction.cancellation) && (
        <ContentCard testId="transaction-notes">
          <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
            {t('transactionStatus.detailsHeading')}
          </Typography>
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { sm: 'auto 1fr' }, columnGap: 3, rowGap: 1 }}>
            {transaction.complaint && (
              <>
                <Typography component="dt" color="text.secondary">
                  {t('transactionStatus.complaint')}
                </Typography>
                <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                  {transaction.complaint.description}
                </Typography>
              </>
            )}
            {transaction.cancellation && (
              <>
                <Typography component="dt" color="text.secondary">
                  {t('transactionStatus.f2f.cancellation')}
                </Typography>
                <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }} data-testid="cancellation-reason">
                  {cancellationKey(transaction.cancellation.description) === 'other'
                    ? transaction.cancellation.description
                    : t(`transactionStatus.f2f.cancelledBy.${cancellationKey(transaction.cancellation.description)}`)}
                </Typography>
              </>
            )}
          </Box>
        </ContentCard>
      )}

      <ContentCard testId="history">
        <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
          {t('transactionStatus.historyHeading')}
        </Typography>
        <TransactionTimeline transaction={transaction} />
      </ContentCard>
    </>
  )
}

/** A buyer's confirmation waits for the seller's where the seller has a handover step; otherwise it started the window. */
function explanationKey(transaction: F2fTransaction): string {
  const awaitingSeller = transaction.status === 'buyer_handover_confirmed' && transaction.show_seller_confirm_handover
  return awaitingSeller ? 'buyer_handover_awaiting_seller' : transaction.status
}

/** The fixed cancellation texts are shown in the reader's language; anything else (an API client's) as it was sent. */
function cancellationKey(description: string): 'creator' | 'buyer' | 'seller' | 'other' {
  if (description === creatorCancellationDescription) return 'creator'
  if (description === 'cancelled by buyer') return 'buyer'
  if (description === 'cancelled by seller') return 'seller'
  return 'other'
}

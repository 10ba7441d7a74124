import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import Skeleton from '@mui/material/Skeleton'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { Transaction } from '@pactum/contracts/transactions'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useParams, useSearchParams } from 'react-router'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { JoinCodeShare } from '../../components/join-code-share.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { DeadlineCountdown } from './deadline-countdown.tsx'
import { F2fTransactionDetails } from './f2f-transaction-details.tsx'
import { awaitsIdentityVerification } from './high-value.ts'
import { HighValueNotice } from './high-value-notice.tsx'
import { ShippingAddressCard } from './shipping-address-card.tsx'
import { StatusChip } from './status-chip.tsx'
import { buttonsFor, TransactionActions } from './transaction-actions.tsx'
import { TransactionTimeline } from './transaction-timeline.tsx'
import { transactionKey, useCarriers, useTransaction } from './transactions-api.ts'

export function TransactionStatusPage() {
  const { t } = useTranslation()
  const { id = '' } = useParams()
  const transaction = useTransaction(id)
  useReturnFromPaymentRedirect(id, transaction.data?.type)

  return (
    <>
      <PageHeader
        title={t('transactionStatus.title')}
        intro={t('transactionStatus.intro')}
        breadcrumbs={[{ label: t('transactions.title'), to: routeTo('transactions') }, { label: t('transactionStatus.title') }]}
      />
      {transaction.isPending ? (
        <ContentCard>
          <Box role="status">
            <Skeleton variant="text" width="50%" height={40} aria-hidden />
            <Skeleton variant="rounded" height={140} aria-hidden />
            <Typography color="text.secondary">{t('app.loading')}</Typography>
          </Box>
          <Reference id={id} />
        </ContentCard>
      ) : transaction.isError ? (
        <ContentCard>
          <Alert
            severity="error"
            data-testid="transaction-error"
            action={
              <Button color="inherit" onClick={() => void transaction.refetch()}>
                {t('common.retry')}
              </Button>
            }
          >
            {errorMessage(t, transaction.error)}
          </Alert>
          <Reference id={id} />
        </ContentCard>
      ) : (
        transaction.data.type === 'f2f' ? (
          <F2fTransactionDetails transaction={transaction.data} refreshing={transaction.isFetching} reference={<Reference id={transaction.data.id} />} />
        ) : (
          <>
            <TransactionDetails transaction={transaction.data} refreshing={transaction.isFetching} />
            <ShippingAddressCard transaction={transaction.data} />
          </>
        )
      )}
    </>
  )
}

function Reference({ id }: { id: string }) {
  const { t } = useTranslation()
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="overline" component="p" color="text.secondary">
        {t('transactionStatus.reference')}
      </Typography>
      <Typography data-testid="transaction-id" sx={{ fontFamily: 'monospace', fontSize: 16, overflowWrap: 'anywhere' }}>
        {id}
      </Typography>
    </Box>
  )
}

/**
 * A redirect payment (P24) comes back as `/transactions/:id?payment_intent=…`:
 * tell the server, once, then drop the parameters. The provider's webhook would
 * bring the same news; whichever arrives first wins on the server.
 */
function useReturnFromPaymentRedirect(id: string, kind: AnyTransaction['type'] | undefined) {
  const [query, setQuery] = useSearchParams()
  const api = useApiClient()
  const queryClient = useQueryClient()
  const intentId = query.get('payment_intent') ?? query.get('payment_intent_id')
  const sent = useRef<string | null>(null)
  useEffect(() => {
    // Which kind's path it goes to is known once the transaction has loaded.
    if (!intentId || !kind || sent.current === intentId) return
    sent.current = intentId
    void api
      .request<AnyTransaction>(`${kind === 'f2f' ? '/p2p' : ''}/transactions/${encodeURIComponent(id)}/confirm_payment`, {
        method: 'POST',
        body: { payment_intent_id: intentId },
      })
      .catch(() => undefined)
      .finally(() => {
        void queryClient.invalidateQueries({ queryKey: transactionKey(id) })
        setQuery({}, { replace: true })
      })
  }, [api, id, intentId, kind, queryClient, setQuery])
}

function TransactionDetails({ transaction, refreshing }: { transaction: Transaction; refreshing: boolean }) {
  const { t } = useTranslation()
  // Exactly what the server offers this viewer; it is re-read while the page is open.
  const actions = buttonsFor(transaction.available_actions)
  const role = transaction.role
  const showTrackingDeadline = transaction.status === 'paid' && transaction.tracking_deadline
  const showComplaintDeadline = transaction.status === 'delivered' && transaction.complaint_period_deadline
  const carriers = useCarriers(transaction.tracking !== null)
  const carrierName = (slug: string) => carriers.data?.find((carrier) => carrier.slug === slug)?.name ?? slug

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
            {role ? t(`transactionStatus.yourRole.${role}`) : t('roles.none')}
          </Typography>
          <AmountSummary price={transaction.price} charge={transaction.charge} currency={transaction.currency} />
          {transaction.payment_method && (
            <Typography variant="body2" color="text.secondary">
              {t('transactionStatus.paymentMethod', { method: t(`paymentMethods.${transaction.payment_method}`) })}
            </Typography>
          )}
          <Typography data-testid="status-explanation">
            {t(`transactionStatus.explain.${transaction.status}.${role ?? 'buyer'}`)}
          </Typography>
          {role && awaitsIdentityVerification(transaction) && <HighValueNotice />}
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
          <Reference id={transaction.id} />
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

      {(actions.length > 0 || showTrackingDeadline || showComplaintDeadline) && (
        <ContentCard testId="next-steps">
          <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
            {t('transactionStatus.nextSteps')}
          </Typography>
          <Stack spacing={2}>
            {showTrackingDeadline && transaction.tracking_deadline && (
              <DeadlineCountdown
                deadline={transaction.tracking_deadline}
                runningKey={role === 'seller' ? 'transactionStatus.deadlines.trackingSeller' : 'transactionStatus.deadlines.trackingBuyer'}
                passedKey="transactionStatus.deadlines.trackingPassed"
                testId="tracking-deadline"
              />
            )}
            {showComplaintDeadline && transaction.complaint_period_deadline && (
              <DeadlineCountdown
                deadline={transaction.complaint_period_deadline}
                runningKey="transactionStatus.deadlines.complaint"
                passedKey="transactionStatus.deadlines.complaintPassed"
                testId="complaint-deadline"
              />
            )}
            {actions.length > 0 && <TransactionActions transaction={transaction} actions={actions} />}
          </Stack>
        </ContentCard>
      )}

      {(transaction.tracking || transaction.order_issue || transaction.complaint) && (
        <ContentCard testId="transaction-notes">
          <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
            {t('transactionStatus.detailsHeading')}
          </Typography>
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { sm: 'auto 1fr' }, columnGap: 3, rowGap: 1 }}>
            {transaction.tracking && (
              <>
                <Typography component="dt" color="text.secondary">
                  {t('transactionStatus.tracking')}
                </Typography>
                <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }} data-testid="tracking-info">
                  {`${carrierName(transaction.tracking.carrier)} · ${transaction.tracking.tracking_code}`}
                </Typography>
              </>
            )}
            {transaction.order_issue && (
              <>
                <Typography component="dt" color="text.secondary">
                  {t('transactionStatus.orderIssue')}
                </Typography>
                <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                  {transaction.order_issue.description}
                </Typography>
              </>
            )}
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

import Box from '@mui/material/Box'
import Skeleton from '@mui/material/Skeleton'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { Transaction } from '@pactum/contracts/transactions'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useParams, useSearchParams } from 'react-router'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { routeTo } from '../../lib/named-routes.ts'
import { CaseCard } from './case-card.tsx'
import { ConversationCard } from './conversation-card.tsx'
import { CounterpartyDetails } from './counterparty-details.tsx'
import { F2fTransactionDetails } from './f2f-transaction-details.tsx'
import { awaitsIdentityVerification } from './high-value.ts'
import { HighValueNotice } from './high-value-notice.tsx'
import { ChargebackNotice } from './chargeback-notice.tsx'
import { ShippingAddressCard } from './shipping-address-card.tsx'
import { awaitsSellerAcceptance, ListingSaleCard } from './listing-sale-card.tsx'
import { InvitationCard } from './invitation-card.tsx'
import { complaintDeadline, type Deadline, NextSteps } from './next-steps.tsx'
import { TrackingValue } from './tracking-value.tsx'
import { HistoryCard, JoinCodeCard, type Note, NotesCard, SummaryCard, SummaryFoot, TransactionReference } from './status-cards.tsx'
import { transactionKey, useCarriers, useTransaction } from './transactions-api.ts'
import { SellerReceives } from './seller-receives.tsx'
import { VerifyCard } from './verify-card.tsx'
import { ReceiptButton } from '../../components/receipt-button.tsx'

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
          <TransactionReference id={id} />
        </ContentCard>
      ) : transaction.isError ? (
        <ContentCard>
          <LoadErrorAlert error={transaction.error} onRetry={() => void transaction.refetch()} testId="transaction-error" />
          <TransactionReference id={id} />
        </ContentCard>
      ) : transaction.data.type === 'f2f' ? (
        <F2fTransactionDetails transaction={transaction.data} refreshing={transaction.isFetching} />
      ) : (
        <TransactionDetails transaction={transaction.data} refreshing={transaction.isFetching} />
      )}
    </>
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
  const role = transaction.role
  const carriers = useCarriers(transaction.tracking !== null)
  const carrierName = (slug: string) => carriers.data?.find((carrier) => carrier.slug === slug)?.name ?? slug
  const notes: Note[] = [
    ...(transaction.tracking
      ? [
          {
            label: t('transactionStatus.tracking'),
            value: <TrackingValue tracking={transaction.tracking} carrierName={carrierName(transaction.tracking.carrier)} />,
            testId: 'tracking-info',
          },
        ]
      : []),
    ...(transaction.order_issue ? [{ label: t('transactionStatus.orderIssue'), value: transaction.order_issue.description }] : []),
    ...(transaction.complaint ? [{ label: t('transactionStatus.complaint'), value: transaction.complaint.description }] : []),
  ]

  return (
    <>
      <SummaryCard transaction={transaction} refreshing={refreshing}>
        <Typography color="text.secondary" data-testid="transaction-role">
          {role ? t(`transactionStatus.yourRole.${role}`) : t('roles.none')}
        </Typography>
        <CounterpartyDetails transaction={transaction} />
        <AmountSummary price={transaction.price} charge={transaction.charge} currency={transaction.currency} />
        <SellerReceives transaction={transaction} />
        <SummaryFoot transaction={transaction} explanation={t(`transactionStatus.explain.${transaction.status}.${role ?? 'buyer'}`)} />
        {role && awaitsIdentityVerification(transaction) && <HighValueNotice />}
        <ChargebackNotice transaction={transaction} />
        <ReceiptButton transaction={transaction} />
      </SummaryCard>

      {awaitsSellerAcceptance(transaction) && <ListingSaleCard transaction={transaction} />}
      <JoinCodeCard transaction={transaction} />
      <InvitationCard transaction={transaction} />

      {/* Where to send it, beside the step of sending it, not under the history (issue 33 item 3). */}
      <ShippingAddressCard transaction={transaction} />
      <NextSteps transaction={transaction} deadlines={deadlinesOf(transaction)} />
      <CaseCard transaction={transaction} />
      <ConversationCard transaction={transaction} />

      <VerifyCard transaction={transaction} />
      <NotesCard notes={notes} />
      <HistoryCard transaction={transaction} />
    </>
  )
}

/** The seller's time to add tracking once paid, and the buyer's complaint window once delivered; none runs while a card dispute pauses the sale. */
function deadlinesOf(transaction: Transaction): Deadline[] {
  if (transaction.chargeback?.frozen) return []
  if (transaction.status === 'paid' && transaction.tracking_deadline) {
    const runningKey =
      transaction.role === 'seller' ? 'transactionStatus.deadlines.trackingSeller' : 'transactionStatus.deadlines.trackingBuyer'
    return [
      {
        deadline: transaction.tracking_deadline,
        runningKey,
        passedKey: 'transactionStatus.deadlines.trackingPassed',
        testId: 'tracking-deadline',
      },
    ]
  }
  if (transaction.status === 'delivered' && transaction.complaint_period_deadline)
    return [complaintDeadline(transaction.complaint_period_deadline)]
  return []
}

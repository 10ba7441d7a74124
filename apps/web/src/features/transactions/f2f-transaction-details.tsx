import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { creatorCancellationDescription, type F2fTransaction } from '@pactum/contracts/f2f-transactions'
import type { TFunction } from '../../i18n/translator.ts'
import { useTranslation } from '../../i18n/react.tsx'
import { AmountSummary } from '../../components/amount-summary.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatMoney } from '../../lib/money.ts'
import { CounterpartyDetails } from './counterparty-details.tsx'
import { awaitsSellerAcceptance, ListingSaleCard } from './listing-sale-card.tsx'
import { InvitationCard } from './invitation-card.tsx'
import { CaseCard } from './case-card.tsx'
import { ConversationCard } from './conversation-card.tsx'
import { complaintDeadline, NextSteps } from './next-steps.tsx'
import { ChargebackNotice } from './chargeback-notice.tsx'
import { HistoryCard, JoinCodeCard, type Note, NotesCard, SummaryCard, SummaryFoot } from './status-cards.tsx'
import { SellerReceives } from './seller-receives.tsx'
import { VerifyCard } from './verify-card.tsx'
import { ReceiptButton } from '../../components/receipt-button.tsx'

/** The status page of a face-to-face sale: the deposit, the remainder, the handover and what comes next. */
export function F2fTransactionDetails({ transaction, refreshing }: { transaction: F2fTransaction; refreshing: boolean }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const role = transaction.role
  const remainder = transaction.pricing ? transaction.pricing.price - transaction.deposit_pricing.price : null
  const windowOpen =
    transaction.complaint_period_deadline !== null &&
    (transaction.status === 'seller_handover_confirmed' || transaction.status === 'buyer_handover_confirmed')
  const notes: Note[] = [
    ...(transaction.complaint ? [{ label: t('transactionStatus.complaint'), value: transaction.complaint.description }] : []),
    ...(transaction.cancellation
      ? [
          {
            label: t('transactionStatus.f2f.cancellation'),
            value: cancellationText(t, transaction.cancellation.description),
            testId: 'cancellation-reason',
          },
        ]
      : []),
  ]

  return (
    <>
      <SummaryCard transaction={transaction} refreshing={refreshing}>
        <Typography color="text.secondary" data-testid="transaction-role">
          {role ? t(`transactionStatus.yourRole.${role}`) : t('roles.none')} · {t('transactionStatus.f2f.kind')}
        </Typography>
        <CounterpartyDetails transaction={transaction} />
        <SellerReceives transaction={transaction} />
        <Box data-testid="deposit-amounts">
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
            {t('transactionStatus.f2f.deposit')}
          </Typography>
          <AmountSummary
            part="deposit"
            price={transaction.deposit_pricing.price}
            charge={transaction.deposit_pricing.charge}
            currency={transaction.currency}
          />
        </Box>
        {transaction.pricing && remainder !== null && (
          <Box data-testid="remainder-amounts">
            <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
              {t('transactionStatus.f2f.remainder', { total: formatMoney(transaction.pricing.price, transaction.currency, locale) })}
            </Typography>
            <AmountSummary part="remainder" price={remainder} charge={transaction.pricing.charge} currency={transaction.currency} />
          </Box>
        )}
        {transaction.status === 'remainder_skipped' && (
          <Typography color="text.secondary" data-testid="remainder-skipped">
            {t('transactionStatus.f2f.remainderSkipped')}
          </Typography>
        )}
        <SummaryFoot
          transaction={transaction}
          explanation={t(`transactionStatus.explainF2f.${explanationKey(transaction)}.${role ?? 'buyer'}`)}
        />
        <ChargebackNotice transaction={transaction} />
        <ReceiptButton transaction={transaction} />
      </SummaryCard>

      {awaitsSellerAcceptance(transaction) && <ListingSaleCard transaction={transaction} />}
      <JoinCodeCard transaction={transaction} />
      <InvitationCard transaction={transaction} />

      <NextSteps
        transaction={transaction}
        deadlines={
          windowOpen && transaction.complaint_period_deadline && !transaction.chargeback?.frozen
            ? [complaintDeadline(transaction.complaint_period_deadline)]
            : []
        }
      />
      <CaseCard transaction={transaction} />
      <ConversationCard transaction={transaction} />

      <VerifyCard transaction={transaction} />
      <NotesCard notes={notes} />
      <HistoryCard transaction={transaction} />
    </>
  )
}

/** A buyer's confirmation waits for the seller's where the seller has a handover step; otherwise it started the window. */
function explanationKey(transaction: F2fTransaction): string {
  const awaitingSeller = transaction.status === 'buyer_handover_confirmed' && transaction.show_seller_confirm_handover
  return awaitingSeller ? 'buyer_handover_awaiting_seller' : transaction.status
}

/** The fixed cancellation texts are shown in the reader's language; anything else (an API client's) as it was sent. */
function cancellationText(t: TFunction, description: string): string {
  if (description === creatorCancellationDescription) return t('transactionStatus.f2f.cancelledBy.creator')
  if (description === 'cancelled by buyer') return t('transactionStatus.f2f.cancelledBy.buyer')
  if (description === 'cancelled by seller') return t('transactionStatus.f2f.cancelledBy.seller')
  return description
}

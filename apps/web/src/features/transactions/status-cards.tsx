import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import CircularProgress from '@mui/material/CircularProgress'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { ReactNode } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatMoney } from '../../lib/money.ts'
import { ContentCard } from '../../components/content-card.tsx'
import { JoinCodeShare } from '../../components/join-code-share.tsx'
import { awaitsSellerAcceptance } from './listing-sale-card.tsx'
import { StatusChip } from './status-chip.tsx'
import { TransactionTimeline } from './transaction-timeline.tsx'
import { LabelledCode } from '../../components/labelled-code.tsx'

/** The parts of a status page that read the same for both kinds of sale. */

/** How the sale is paid and, unless the seller has yet to accept the buyer (the listing card says so), what its status means. */
export function SummaryFoot({ transaction, explanation }: { transaction: AnyTransaction; explanation: string }) {
  const { t } = useTranslation()
  return (
    <>
      {transaction.payment_method && (
        <Typography variant="body2" color="text.secondary">
          {t('transactionStatus.paymentMethod', { method: t(`paymentMethods.${transaction.payment_method}`) })}
        </Typography>
      )}
      {!awaitsSellerAcceptance(transaction) && <Typography data-testid="status-explanation">{explanation}</Typography>}
    </>
  )
}

/** The item, its status and what is happening in the background. */
export function SummaryCard({
  transaction,
  refreshing,
  children,
}: {
  transaction: AnyTransaction
  refreshing: boolean
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <ContentCard testId="transaction-summary">
      <Stack spacing={2}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1.5}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}
        >
          <Typography component="h2" variant="h5" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }} data-testid="transaction-description">
            {transaction.description}
          </Typography>
          <Box sx={{ flexShrink: 0 }}>
            <StatusChip transaction={transaction} />
          </Box>
        </Stack>
        {children}
        <SettledAmounts transaction={transaction} />
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
        <TransactionReference id={transaction.id} />
      </Stack>
    </ContentCard>
  )
}

/**
 * What went back to the buyer and what was paid out to the seller, once
 * anything was: a payment sent back because the sale could not take it
 * shows here too, beside a release (a remainder paid after it was skipped).
 */
function SettledAmounts({ transaction }: { transaction: AnyTransaction }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  if (transaction.amount_refunded === 0 && transaction.amount_released === 0) return null
  const lines = [
    transaction.amount_refunded > 0 &&
      t('transactionStatus.refunded', { amount: formatMoney(transaction.amount_refunded, transaction.currency, locale) }),
    transaction.amount_released > 0 &&
      t('transactionStatus.released', { amount: formatMoney(transaction.amount_released, transaction.currency, locale) }),
  ]
  return (
    <Typography sx={{ fontWeight: 600 }} data-testid="settled-amount">
      {lines.filter(Boolean).join(' · ')}
    </Typography>
  )
}

/** The id to quote to support. */
export function TransactionReference({ id }: { id: string }) {
  const { t } = useTranslation()
  return (
    <Box sx={{ mt: 2 }}>
      <LabelledCode
        label={t('transactionStatus.reference')}
        code={id}
        testId="transaction-id"
        sx={{ fontSize: 16, overflowWrap: 'anywhere' }}
      />
    </Box>
  )
}

/** The code the creator hands the other party, while it can still be used. */
export function JoinCodeCard({ transaction }: { transaction: AnyTransaction }) {
  const { t } = useTranslation()
  if (transaction.status !== 'created' || !transaction.join_code) return null
  return (
    <ContentCard testId="status-join-code">
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('transactionStatus.shareHeading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('transactionStatus.shareBody')}
      </Typography>
      <JoinCodeShare code={transaction.join_code} testId="status-join-code-value" />
    </ContentCard>
  )
}

export function NextStepsCard({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <ContentCard testId="next-steps">
      <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
        {t('transactionStatus.nextSteps')}
      </Typography>
      <Stack spacing={2}>{children}</Stack>
    </ContentCard>
  )
}

export interface Note {
  label: string
  value: ReactNode
  testId?: string
}

/** What the parties wrote or added (tracking, complaint, cancellation): nothing shown when there is none. */
export function NotesCard({ notes }: { notes: readonly Note[] }) {
  const { t } = useTranslation()
  if (notes.length === 0) return null
  return (
    <ContentCard testId="transaction-notes">
      <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
        {t('transactionStatus.detailsHeading')}
      </Typography>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { sm: 'auto 1fr' }, columnGap: 3, rowGap: 1 }}>
        {notes.map((note) => (
          <Box key={note.label} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary">
              {note.label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }} data-testid={note.testId}>
              {note.value}
            </Typography>
          </Box>
        ))}
      </Box>
    </ContentCard>
  )
}

export function HistoryCard({ transaction }: { transaction: AnyTransaction }) {
  const { t } = useTranslation()
  return (
    <ContentCard testId="history">
      <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
        {t('transactionStatus.historyHeading')}
      </Typography>
      <TransactionTimeline transaction={transaction} />
    </ContentCard>
  )
}

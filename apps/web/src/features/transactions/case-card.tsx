import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Chip from '@mui/material/Chip'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { CaseView } from '@pactum/contracts/disputes'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { useState } from 'react'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { useCase } from './case-api.ts'
import { CaseOffers } from '../../components/case-offers.tsx'
import { PdfDownloadButton } from '../../components/pdf-download-button.tsx'
import { SettlementOfferDialog } from './settlement-offer-dialog.tsx'
import { useConfirmedAction } from './use-confirmed-action.ts'

type Step = 'propose' | 'accept' | 'decline' | 'escalate'

/**
 * The case a complaint opened, for either kind: its reason and deadlines,
 * the offers, and what the viewer may do now (offer a split, answer the
 * other party's offer, ask Pactum to decide), as `available_actions` says.
 */
export function CaseCard({ transaction }: { transaction: AnyTransaction }) {
  const { t } = useTranslation()
  const dispute = useCase(transaction)
  if (transaction.complaint === null) return null
  return (
    <ContentCard testId="case-card">
      <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
        {t('transactionStatus.case.heading')}
      </Typography>
      {dispute.isPending ? (
        <Typography role="status" color="text.secondary">
          {t('app.loading')}
        </Typography>
      ) : dispute.isError ? (
        <LoadErrorAlert error={dispute.error} onRetry={() => void dispute.refetch()} testId="case-error" />
      ) : (
        <CaseBody transaction={transaction} dispute={dispute.data} />
      )}
    </ContentCard>
  )
}

function CaseBody({ transaction, dispute }: { transaction: AnyTransaction; dispute: CaseView }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const [step, setStep] = useState<Step | null>(null)
  const close = () => setStep(null)
  const offers = transaction.available_actions as readonly string[]
  const open = dispute.offers.find((offer) => offer.outcome === 'open')
  const answerable = open !== undefined && open.by !== transaction.role && offers.includes('accept_settlement')
  const when = (iso: string) => formatDateTime(iso, locale)
  const money = (minor: number) => formatMoney(minor, dispute.currency, locale)
  const facts = [
    `${t('transactionStatus.case.reason')}: ${t(`complaintReasons.${dispute.reason}`)}`,
    ...(dispute.state === 'open' && dispute.response_deadline
      ? [t('transactionStatus.case.responseDeadline', { date: when(dispute.response_deadline) })]
      : []),
    ...(dispute.escalated_at ? [t('transactionStatus.case.escalatedAt', { date: when(dispute.escalated_at) })] : []),
    t('transactionStatus.case.summaryDue', { date: when(dispute.summary_due) }),
    t('transactionStatus.case.finalAnswerDue', { date: when(dispute.final_answer_due) }),
  ]
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip label={t(`transactionStatus.case.states.${dispute.state}`)} color={dispute.state === 'closed' ? 'default' : 'primary'} />
        <Typography sx={{ overflowWrap: 'anywhere' }}>{dispute.description}</Typography>
      </Stack>
      <Stack component="ul" spacing={0.5} sx={{ m: 0, pl: 2.5 }} data-testid="case-facts">
        {facts.map((fact) => (
          <Typography component="li" key={fact} color="text.secondary">
            {fact}
          </Typography>
        ))}
      </Stack>
      {dispute.state === 'closed' && (
        <Alert severity="info" data-testid="case-outcome">
          {t('transactionStatus.case.outcome', { refunded: money(dispute.amount_refunded), released: money(dispute.amount_released) })}
        </Alert>
      )}
      <Typography component="h3" variant="subtitle1">
        {t('transactionStatus.case.offersHeading')}
      </Typography>
      <CaseOffers dispute={dispute} role={transaction.role} />
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ flexWrap: 'wrap', gap: 1.5 }}>
        {answerable && (
          <>
            <Button variant="contained" onClick={() => setStep('accept')} data-testid="action-accept-settlement">
              {t('transactionStatus.case.accept')}
            </Button>
            <Button variant="outlined" onClick={() => setStep('decline')} data-testid="action-decline-settlement">
              {t('transactionStatus.case.decline')}
            </Button>
          </>
        )}
        {offers.includes('propose_settlement') && (
          <Button
            variant={answerable ? 'outlined' : 'contained'}
            onClick={() => setStep('propose')}
            data-testid="action-propose-settlement"
          >
            {t(answerable ? 'transactionStatus.case.counter' : 'transactionStatus.case.propose')}
          </Button>
        )}
        {offers.includes('escalate_case') && (
          <Button variant="outlined" onClick={() => setStep('escalate')} data-testid="action-escalate-case">
            {t('transactionStatus.case.escalate')}
          </Button>
        )}
      </Stack>
      <PdfDownloadButton
        document="caseFile"
        path={`${transaction.type === 'f2f' ? '/p2p' : ''}/transactions/${transaction.id}/case_file`}
        transactionId={transaction.id}
      />
      {step === 'propose' && <SettlementOfferDialog transaction={transaction} dispute={dispute} onClose={close} />}
      {(step === 'accept' || step === 'decline' || step === 'escalate') && (
        <CaseStepDialog
          step={step}
          transaction={transaction}
          offerId={open?.id}
          lines={open && { refund: money(open.refund_to_buyer), release: money(open.release_to_seller) }}
          onClose={close}
        />
      )}
    </Stack>
  )
}

/** Accepting or declining the open offer, or asking Pactum to decide: a confirmation, then Success! or the error. */
function CaseStepDialog({
  step,
  transaction,
  offerId,
  lines,
  onClose,
}: {
  step: 'accept' | 'decline' | 'escalate'
  transaction: AnyTransaction
  offerId: string | undefined
  lines: { refund: string; release: string } | undefined
  onClose: () => void
}) {
  const { t } = useTranslation()
  const confirmed = useConfirmedAction(transaction.id, transaction.type, onClose)
  const path = step === 'escalate' ? 'escalate' : `settlement_offers/${encodeURIComponent(offerId ?? '')}/${step}`
  return (
    <ConfirmDialog
      open
      title={t(`transactionStatus.case.${step}Title`)}
      body={t(`transactionStatus.case.${step}Body`, lines ?? {})}
      confirmLabel={t(`transactionStatus.case.${step}Confirm`)}
      busy={confirmed.busy}
      onConfirm={() => confirmed.send(path, {}, t(`transactionStatus.case.${step}Done`))}
      onClose={onClose}
      testId={`dialog-${step}-case`}
    />
  )
}

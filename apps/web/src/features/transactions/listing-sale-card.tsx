import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { useConfirmedAction } from './use-confirmed-action.ts'

/** A purchase from a listing that the seller has not answered yet: both parties are set, it is still `created`. */
export function awaitsSellerAcceptance(transaction: AnyTransaction): boolean {
  return transaction.listing_id !== null && transaction.status === 'created'
}

type Answer = 'accept' | 'reject'
const answerAction = { accept: 'accept_listing_transaction', reject: 'reject_listing_transaction' } as const

/**
 * What a listing's purchase waits for: the buyer is told the seller must
 * accept first; the seller gets Accept and Reject, as the server offers them.
 */
export function ListingSaleCard({ transaction }: { transaction: AnyTransaction }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState<Answer | null>(null)
  const offered = (['accept', 'reject'] as const).filter((answer) =>
    (transaction.available_actions as readonly string[]).includes(answerAction[answer]),
  )
  return (
    <ContentCard testId="listing-acceptance">
      <Stack spacing={2}>
        <Typography component="h2" variant="h6">
          {t('listings.sale.title')}
        </Typography>
        <Typography data-testid="listing-acceptance-explanation">
          {t(`listings.sale.explain.${transaction.role === 'seller' ? 'seller' : 'buyer'}`)}
        </Typography>
        {offered.length > 0 && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            {offered.map((answer) => (
              <Button
                key={answer}
                variant={answer === 'accept' ? 'contained' : 'outlined'}
                color={answer === 'accept' ? 'primary' : 'error'}
                size="large"
                onClick={() => setOpen(answer)}
                data-testid={`action-${answer}-listing`}
              >
                {t(`listings.sale.${answer}.button`)}
              </Button>
            ))}
          </Stack>
        )}
      </Stack>
      {open && <AnswerDialog answer={open} transaction={transaction} onClose={() => setOpen(null)} />}
    </ContentCard>
  )
}

function AnswerDialog({ answer, transaction, onClose }: { answer: Answer; transaction: AnyTransaction; onClose: () => void }) {
  const { t } = useTranslation()
  const confirmed = useConfirmedAction(transaction.id, transaction.type, onClose)
  return (
    <ConfirmDialog
      open
      title={t(`listings.sale.${answer}.title`)}
      body={t(`listings.sale.${answer}.body`)}
      confirmLabel={t(`listings.sale.${answer}.confirm`)}
      destructive={answer === 'reject'}
      busy={confirmed.busy}
      onConfirm={() => confirmed.send(answerAction[answer], {}, t(`listings.sale.${answer}.success`))}
      onClose={onClose}
      testId={`dialog-${answer}-listing`}
    />
  )
}

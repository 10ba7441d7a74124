import Chip from '@mui/material/Chip'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { useTranslation } from '../../i18n/react.tsx'
import { type StatusTone, statusTones } from '../../components/status-tones.ts'
import { yourMoveKey } from './your-move.ts'

type Status = AnyTransaction['status']

const toneOf: Record<Status, StatusTone> = {
  created: 'waiting',
  joined: 'waiting',
  paid: 'progress',
  tracked: 'progress',
  delivered: 'progress',
  complained: 'attention',
  complaint_period_ended: 'done',
  funds_released: 'done',
  cancelled: 'closed',
  rejected: 'closed',
  cancelled_with_payment: 'attention',
  payment_refunded: 'closed',
  deposit_paid: 'progress',
  deposit_accepted: 'progress',
  priced: 'waiting',
  remainder_paid: 'progress',
  remainder_skipped: 'progress',
  seller_handover_confirmed: 'progress',
  buyer_handover_confirmed: 'progress',
  cancelled_with_deposit: 'attention',
  deposit_refunded: 'closed',
}

export function statusNameKey(status: Status): string {
  return `transactionStatusNames.${status}`
}

type ChipTransaction = Pick<AnyTransaction, 'type' | 'status' | 'listing_id' | 'role'>

/**
 * The status as the reader should read it: the step that is theirs to take
 * when the sale waits for them; otherwise what it waits for. A purchase from
 * a listing waits in `created` for the seller's answer, not for someone to join.
 */
function chipNameKey(transaction: ChipTransaction): string {
  const yours = yourMoveKey(transaction)
  if (yours) return yours
  return transaction.status === 'created' && transaction.listing_id
    ? 'transactionStatusNames.awaiting_seller_acceptance'
    : statusNameKey(transaction.status)
}

export function StatusChip({ transaction, testId = 'transaction-status' }: { transaction: ChipTransaction; testId?: string }) {
  const { t } = useTranslation()
  const { status } = transaction
  const yours = yourMoveKey(transaction) !== null
  const tone = statusTones[yours ? 'action' : (toneOf[status] ?? 'closed')]
  return (
    <Chip
      label={t(chipNameKey(transaction))}
      size="small"
      data-testid={testId}
      data-status={status}
      data-your-move={yours || undefined}
      sx={{ bgcolor: tone.bg, color: tone.fg, fontWeight: 600, maxWidth: '100%' }}
    />
  )
}

import Chip from '@mui/material/Chip'
import type { OnlineStatus } from '@pactum/contracts/transactions'
import { useTranslation } from 'react-i18next'
import { type StatusTone, statusTones } from '../../components/status-tones.ts'

const toneOf: Record<OnlineStatus, StatusTone> = {
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
}

export function statusNameKey(status: OnlineStatus): string {
  return `transactionStatusNames.${status}`
}

export function StatusChip({ status, testId = 'transaction-status' }: { status: OnlineStatus; testId?: string }) {
  const { t } = useTranslation()
  const tone = statusTones[toneOf[status] ?? 'closed']
  return (
    <Chip
      label={t(statusNameKey(status))}
      size="small"
      data-testid={testId}
      data-status={status}
      sx={{ bgcolor: tone.bg, color: tone.fg, fontWeight: 600, maxWidth: '100%' }}
    />
  )
}

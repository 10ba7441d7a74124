import Chip from '@mui/material/Chip'
import type { OnlineStatus } from '@pactum/contracts/transactions'
import { useTranslation } from 'react-i18next'

/** Colour pairs chosen for at least 4.5:1 contrast, so the chip text stays readable. */
const tones = {
  waiting: { bg: '#e3f2fd', fg: '#0d3c87' },
  progress: { bg: '#e8eaf6', fg: '#1a237e' },
  attention: { bg: '#fff3e0', fg: '#7a3e00' },
  done: { bg: '#e8f5e9', fg: '#1b5e20' },
  closed: { bg: '#eceff1', fg: '#37474f' },
} as const

const toneOf: Record<OnlineStatus, keyof typeof tones> = {
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
  const tone = tones[toneOf[status] ?? 'closed']
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

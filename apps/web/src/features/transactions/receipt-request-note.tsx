import Typography from '@mui/material/Typography'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime } from '../../lib/dates.ts'

/**
 * When the seller last asked the buyer to confirm receipt, while that still
 * matters (the parcel shipped and the buyer has not spoken): the button
 * is gone for a day after asking, and this says why.
 */
export function receiptRequestedAt(transaction: AnyTransaction): string | null {
  if (transaction.type !== 'online' || transaction.role !== 'seller') return null
  if (transaction.status !== 'tracked' && transaction.status !== 'delivered') return null
  return transaction.receipt_confirmation_requested_at
}

export function ReceiptRequestNote({ at }: { at: string }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  return (
    <Typography variant="body2" color="text.secondary" data-testid="receipt-request-note">
      {t('transactionStatus.actions.request_receipt_confirmation.requestedAt', { date: formatDateTime(at, locale) })}
    </Typography>
  )
}

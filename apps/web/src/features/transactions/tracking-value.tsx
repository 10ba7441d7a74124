import OpenInNewIcon from '@mui/icons-material/OpenInNew'
import Link from '@mui/material/Link'
import type { Transaction } from '@pactum/contracts/transactions'
import { useTranslation } from '../../i18n/react.tsx'

/**
 * The carrier and the tracking code; the code links to the carrier's own
 * tracking page when the server knows one (it builds the address, so the
 * list of carriers and their pages lives in one place).
 */
export function TrackingValue({ tracking, carrierName }: { tracking: NonNullable<Transaction['tracking']>; carrierName: string }) {
  const { t } = useTranslation()
  if (!tracking.tracking_url) return `${carrierName} · ${tracking.tracking_code}`
  return (
    <>
      {carrierName} ·{' '}
      <Link
        href={tracking.tracking_url}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={t('transactionStatus.trackingLink', { code: tracking.tracking_code, carrier: carrierName })}
        data-testid="tracking-link"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
      >
        {tracking.tracking_code}
        <OpenInNewIcon fontSize="inherit" aria-hidden />
      </Link>
    </>
  )
}

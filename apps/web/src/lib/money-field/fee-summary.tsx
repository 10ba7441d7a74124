import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import { type AmountPart, AmountSummary } from '../../components/amount-summary.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { errorMessage } from '../api/error-message.ts'
import type { FeeQuote } from './use-fee-quote.ts'

/**
 * The price, its fee and the total, as `fee` quotes them. With `retry`, a
 * quote that failed takes the summary's place with a button to ask again;
 * without, its message shows below the summary.
 */
export function FeeSummary({
  fee,
  price,
  currency,
  loading,
  retry = false,
  part,
}: {
  fee: FeeQuote
  price: number
  currency: string
  loading?: boolean
  retry?: boolean
  part?: AmountPart
}) {
  const { t } = useTranslation()
  const failed = fee.error !== null && (
    <Alert
      severity="error"
      action={
        retry ? (
          <Button color="inherit" onClick={fee.retry}>
            {t('common.retry')}
          </Button>
        ) : undefined
      }
    >
      {errorMessage(t, fee.error)}
    </Alert>
  )
  if (retry && failed) return failed
  return (
    <>
      <AmountSummary part={part} price={price} currency={currency} charge={fee.shown?.charge} loading={loading ?? !fee.shown} />
      {failed}
    </>
  )
}

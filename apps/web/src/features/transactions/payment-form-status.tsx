import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import Typography from '@mui/material/Typography'
import type { UseQueryResult } from '@tanstack/react-query'
import { useTranslation } from '../../i18n/react.tsx'
import { canRetry } from '../../lib/api/can-retry.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import type { PaymentSetup } from '../../lib/payments/publishable-key.ts'

/**
 * In place of the payment form while the provider's key is asked for, or
 * when neither the transaction's key nor the user's could be had: without
 * a key there is no knowing which provider's form to show.
 */
export function PaymentFormStatus({ setup }: { setup: UseQueryResult<PaymentSetup> }) {
  const { t } = useTranslation()
  if (setup.isError) {
    return (
      <Alert
        severity="error"
        data-testid="payment-form-error"
        action={
          canRetry(setup.error) && (
            <Button color="inherit" onClick={() => void setup.refetch()}>
              {t('common.retry')}
            </Button>
          )
        }
      >
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {t('checkout.paymentFormFailed')}
        </Typography>
        {errorMessage(t, setup.error)}
      </Alert>
    )
  }
  return (
    <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }} data-testid="payment-form-loading">
      <CircularProgress size={20} aria-hidden />
      <Typography color="text.secondary">{t('checkout.paymentFormLoading')}</Typography>
    </Box>
  )
}

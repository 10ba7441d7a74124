import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import { useTranslation } from '../../i18n/react.tsx'

/** Why My transactions' list did not load, with "Try again" where that can help. */
export function ListLoadErrorAlert({ message, onRetry }: { message: string; onRetry: (() => void) | undefined }) {
  const { t } = useTranslation()
  return (
    <Alert
      severity="error"
      data-testid="transactions-error"
      action={
        onRetry && (
          <Button color="inherit" onClick={onRetry} data-testid="transactions-retry">
            {t('common.retry')}
          </Button>
        )
      }
    >
      {message}
    </Alert>
  )
}

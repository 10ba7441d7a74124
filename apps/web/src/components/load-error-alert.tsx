import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import type { ReactNode } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { canRetry } from '../lib/api/can-retry.ts'
import { errorMessage } from '../lib/api/error-message.ts'
import { routeTo } from '../lib/named-routes.ts'

/**
 * What a page says when its content could not be loaded: the reason in the
 * interface language, with "Try again" only where that can help (`canRetry`)
 * and otherwise the way back to My transactions. `actions` are offered either way.
 */
export function LoadErrorAlert({
  error,
  onRetry,
  actions,
  testId,
}: {
  error: unknown
  onRetry: () => void
  actions?: ReactNode
  testId?: string
}) {
  const { t } = useTranslation()
  return (
    <Alert
      severity="error"
      data-testid={testId}
      action={
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          {canRetry(error) ? (
            <Button color="inherit" onClick={onRetry} data-testid="error-retry">
              {t('common.retry')}
            </Button>
          ) : (
            <Button color="inherit" component={RouterLink} to={routeTo('transactions')} data-testid="error-to-transactions">
              {t('transactions.title')}
            </Button>
          )}
          {actions}
        </Stack>
      }
      sx={{ flexWrap: 'wrap' }}
    >
      {errorMessage(t, error)}
    </Alert>
  )
}

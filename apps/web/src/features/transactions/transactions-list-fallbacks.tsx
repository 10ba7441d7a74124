import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { keyframes, styled } from '@mui/material/styles'
import { lazy, Suspense } from 'react'
import { FallbackOnError } from '../../components/fallback-on-error.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { canRetry } from '../../lib/api/can-retry.ts'
import { errorMessage } from '../../lib/api/error-message.ts'

const pulse = keyframes`
  0% { opacity: 1; }
  50% { opacity: 0.4; }
  100% { opacity: 1; }
`
/** What MUI's `<Skeleton variant="rounded" height={88} />` draws, without Skeleton in the first load (issue 13). */
export const RowPlaceholder = styled('div')(({ theme }) => ({
  height: 88,
  borderRadius: theme.shape.borderRadius,
  backgroundColor: theme.alpha(theme.palette.text.primary, 0.11),
  animation: `${pulse} 2s ease-in-out 0.5s infinite`,
}))

// Only a failed list shows it: Alert and its icons stay out of the page's first load (issue 13).
const ListLoadErrorAlert = lazy(() => import('./list-load-error.tsx').then((module) => ({ default: module.ListLoadErrorAlert })))

/** The list could not be had: why, and a way to ask again where asking again may help. */
export function ListLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation()
  const message = errorMessage(t, error)
  const retry = canRetry(error) ? onRetry : undefined
  // Until the Alert's chunk is in, its words alone: a button here would move under the pointer a moment
  // later. If the chunk cannot come (offline), the words and the button, unstyled.
  const plain = (withRetry: boolean) => (
    <Stack spacing={1} data-testid="transactions-error" role="alert" sx={{ alignItems: 'flex-start', color: 'error.main' }}>
      <Typography>{message}</Typography>
      {withRetry && retry && (
        <Button variant="outlined" onClick={retry} data-testid="transactions-retry">
          {t('common.retry')}
        </Button>
      )}
    </Stack>
  )
  return (
    <FallbackOnError fallback={plain(true)}>
      <Suspense fallback={plain(false)}>
        <ListLoadErrorAlert message={message} onRetry={retry} />
      </Suspense>
    </FallbackOnError>
  )
}

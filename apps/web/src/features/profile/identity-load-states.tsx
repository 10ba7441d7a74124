import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'

/** A part of the identity section still loading (or the provider still checking). */
export function Busy({ label, testId }: { label: string; testId?: string }) {
  return (
    <Stack direction="row" spacing={1.5} role="status" data-testid={testId} sx={{ alignItems: 'center' }}>
      <CircularProgress size={20} aria-hidden />
      <Typography>{label}</Typography>
    </Stack>
  )
}

/** A part of the identity section that could not be loaded, with a way to ask again. */
export function LoadFailed({ label, onRetry, testId }: { label: string; onRetry: () => void; testId?: string }) {
  const { t } = useTranslation()
  return (
    <Stack spacing={1} data-testid={testId} sx={{ alignItems: 'flex-start' }}>
      <Typography color="error">{label}</Typography>
      <Button onClick={onRetry}>{t('common.retry')}</Button>
    </Stack>
  )
}

import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import { useTranslation } from '../../i18n/react.tsx'
import { errorMessage } from '../../lib/api/error-message.ts'
import { useCarriers } from './transactions-api.ts'

const trackingCodePattern = /^[A-Za-z0-9-]{3,64}$/

export interface Tracking {
  carrier: string
  trackingCode: string
}

/** What is wrong with the tracking as entered, as the texts to show under each field. */
export function trackingErrors(tracking: Tracking, t: (key: string) => string): { carrier?: string; code?: string } {
  return {
    ...(tracking.carrier === '' ? { carrier: t('transactionStatus.actions.track.carrierRequired') } : {}),
    ...(!trackingCodePattern.test(tracking.trackingCode.trim()) ? { code: t('transactionStatus.actions.track.codeInvalid') } : {}),
  }
}

/** The seller's carrier (from the carriers we can track) and tracking code. */
export function TrackingFields({
  tracking,
  onChange,
  showErrors,
}: {
  tracking: Tracking
  onChange: (tracking: Tracking) => void
  showErrors: boolean
}) {
  const { t } = useTranslation()
  const carriers = useCarriers(true)
  const errors = trackingErrors(tracking, t)
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <TextField
        select
        label={t('transactionStatus.actions.track.carrierLabel')}
        value={tracking.carrier}
        onChange={(event) => onChange({ ...tracking, carrier: event.target.value })}
        required
        error={showErrors && !!errors.carrier}
        helperText={carriers.isError ? errorMessage(t, carriers.error) : showErrors ? errors.carrier : undefined}
        disabled={carriers.isPending}
        slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'carrier-select' } }}
      >
        <option value="">{carriers.isPending ? t('app.loading') : t('transactionStatus.actions.track.carrierPlaceholder')}</option>
        {(carriers.data ?? []).map((option) => (
          <option key={option.slug} value={option.slug}>
            {option.name}
          </option>
        ))}
      </TextField>
      <TextField
        label={t('transactionStatus.actions.track.codeLabel')}
        value={tracking.trackingCode}
        onChange={(event) => onChange({ ...tracking, trackingCode: event.target.value })}
        required
        error={showErrors && !!errors.code}
        helperText={showErrors && errors.code ? errors.code : t('transactionStatus.actions.track.codeHint')}
        slotProps={{ htmlInput: { maxLength: 64, 'data-testid': 'tracking-code-input', autoCapitalize: 'characters' } }}
      />
    </Stack>
  )
}

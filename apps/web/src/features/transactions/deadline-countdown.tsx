import HourglassBottomIcon from '@mui/icons-material/HourglassBottomOutlined'
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatDateTime, formatRemaining } from '../../lib/dates.ts'
import { useNow } from '../../lib/use-now.ts'

/**
 * "Complaint window closes in 23 hr, 59 min, 12 sec", ticking every second.
 * role="timer" keeps screen readers from announcing each tick.
 */
export function DeadlineCountdown({
  deadline,
  runningKey,
  passedKey,
  testId,
}: {
  deadline: string
  runningKey: string
  passedKey: string
  testId: string
}) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const now = useNow(1000)
  const remaining = Date.parse(deadline) - now
  const at = formatDateTime(deadline, locale)
  return (
    <Box
      role="timer"
      data-testid={testId}
      data-deadline={deadline}
      sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', p: 2, borderRadius: 2, bgcolor: '#fff8e1' }}
    >
      <HourglassBottomIcon aria-hidden sx={{ color: '#7a4f01', mt: 0.25 }} />
      <div>
        <Typography sx={{ fontWeight: 600 }}>
          {remaining > 0 ? t(runningKey, { remaining: formatRemaining(remaining, locale) }) : t(passedKey)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('transactionStatus.deadlines.at', { date: at })}
        </Typography>
      </div>
    </Box>
  )
}

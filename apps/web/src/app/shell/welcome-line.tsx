import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'

export function WelcomeLine({ firstName }: { firstName: string | undefined }) {
  const { t } = useTranslation()
  const name = firstName?.trim()
  return (
    <Typography data-testid="welcome-line" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
      {name ? t('shell.welcome', { name }) : t('shell.welcomeStranger')}
    </Typography>
  )
}

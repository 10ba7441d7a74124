import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../i18n/react.tsx'

/** The Pactum mark: a "P" that closes on itself, like money held until the deal is done. */
export function PactumMark({ size = 36, inverted = false }: { size?: number; inverted?: boolean }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <rect width="48" height="48" rx="12" fill={inverted ? '#ffffff' : '#2949ce'} />
      <path
        d="M16 36V12h10a8 8 0 0 1 0 16H16"
        fill="none"
        stroke={inverted ? '#2949ce' : '#ffffff'}
        strokeWidth="5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="34.5" cy="35" r="4" fill="#5fe3a1" />
    </svg>
  )
}

/** Mark and word mark (`inverted` on the primary-coloured app bar). The surrounding link carries the accessible name. */
export function PactumLogo({ inverted = false }: { inverted?: boolean }) {
  const { t } = useTranslation()
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25 }}>
      <PactumMark inverted={inverted} />
      <Typography
        component="span"
        aria-hidden
        sx={{ fontSize: 24, fontWeight: 800, letterSpacing: '-0.02em', color: inverted ? 'common.white' : 'primary.main' }}
      >
        {t('app.name')}
      </Typography>
    </Box>
  )
}

import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useAuth } from '../../lib/auth/auth-context.tsx'

export function PersonalDetailsPage() {
  const { t } = useTranslation()
  const { user } = useAuth()
  const name = [user?.profile.givenName, user?.profile.familyName].filter(Boolean).join(' ')
  const rows = [
    { label: t('profile.details.name'), value: name || t('profile.details.notProvided'), testId: 'details-name' },
    { label: t('profile.details.email'), value: user?.profile.email ?? t('profile.details.notProvided'), testId: 'details-email' },
  ]
  return (
    <>
      <PageHeader title={t('profile.details.title')} intro={t('profile.details.intro')} />
      <ContentCard>
        <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
          {t('profile.details.signInDetails')}
        </Typography>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { sm: '180px 1fr' }, gap: 1.5, m: 0 }}>
          {rows.map((row) => (
            <Box key={row.testId} sx={{ display: 'contents' }}>
              <Typography component="dt" color="text.secondary">
                {row.label}
              </Typography>
              <Typography component="dd" data-testid={row.testId} sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {row.value}
              </Typography>
            </Box>
          ))}
        </Box>
      </ContentCard>
    </>
  )
}

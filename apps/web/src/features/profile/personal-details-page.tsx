import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { DetailsList } from '../../components/details-list.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { canRetry } from '../../lib/api/can-retry.ts'
import { useAuth } from '../../lib/auth/auth-context.tsx'
import { IdentityDocumentSection } from './identity-document-section.tsx'
import { PayoutRequirementsCard } from './payout-requirements-card.tsx'
import { PersonalDetailsForm } from './personal-details-form.tsx'
import { hasErrorCode, usePersonalProfile } from '../../lib/api/profile-queries.ts'
import { TaxIdentifiersSection } from './tax-identifiers-section.tsx'

function PersonalDetailsSection() {
  const { t } = useTranslation()
  const profile = usePersonalProfile()
  if (profile.isPending) {
    return (
      <ContentCard testId="personal-details-loading">
        <StatusMessage busy title={t('profile.personal.loading')} />
      </ContentCard>
    )
  }
  if (profile.isError) {
    const noCountry = hasErrorCode(profile.error, 'active_country_not_set')
    return (
      <ContentCard testId="personal-details-error">
        <StatusMessage
          title={noCountry ? t('profile.personal.noCountryTitle') : t('profile.personal.loadFailed')}
          body={noCountry ? t('profile.personal.noCountryBody') : undefined}
          action={canRetry(profile.error) ? { label: t('common.retry'), onClick: () => void profile.refetch() } : undefined}
        />
      </ContentCard>
    )
  }
  const activeCountry = profile.data.address?.country_code ?? ''
  return (
    <>
      <ContentCard testId="personal-details">
        {/* Keyed so a different account or country starts from its own values. */}
        <PersonalDetailsForm key={activeCountry} profile={profile.data} activeCountry={activeCountry} />
      </ContentCard>
      <TaxIdentifiersSection profile={profile.data} />
      <IdentityDocumentSection />
    </>
  )
}

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
      <PayoutRequirementsCard />
      <PersonalDetailsSection />
      <ContentCard>
        <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
          {t('profile.details.signInDetails')}
        </Typography>
        <DetailsList rows={rows} />
      </ContentCard>
    </>
  )
}

import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined'
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined'
import Button from '@mui/material/Button'
import CircularProgress from '@mui/material/CircularProgress'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import ListItemIcon from '@mui/material/ListItemIcon'
import ListItemText from '@mui/material/ListItemText'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { routeTo } from '../../lib/named-routes.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { hasErrorCode, usePayoutRequirements } from '../../lib/api/profile-queries.ts'
import { useOpenProviderOnboarding } from './profile-api.ts'
import { BusyButton } from '../../components/busy-button.tsx'

/** Requirement names the interface has words for; anything else is listed as "other information". */
export const knownRequirements = [
  'name',
  'dob',
  'address',
  'phone',
  'credit_account',
  'identity_document',
  'additional_identity_document',
  'ssn_last_4',
  'id_number',
  'provider_onboarding',
] as const

/** What is still due before payouts (GET /me/personal/payout_requirements). */
export function PayoutRequirementsCard() {
  const { t } = useTranslation()
  const requirements = usePayoutRequirements()
  const onboarding = useOpenProviderOnboarding()
  // After success the browser is leaving for the provider's page: keep the button busy until it does.
  const opening = onboarding.isPending || onboarding.isSuccess

  // Before the terms are accepted the onboarding dialog deals with it.
  if (hasErrorCode(requirements.error, 'tos_not_accepted')) return null

  let body
  if (requirements.isPending) {
    body = (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }}>
        <CircularProgress size={20} aria-hidden />
        <Typography>{t('profile.requirements.loading')}</Typography>
      </Stack>
    )
  } else if (requirements.isError) {
    body = (
      <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Typography color="error">{t('profile.requirements.loadFailed')}</Typography>
        <Button onClick={() => void requirements.refetch()}>{t('common.retry')}</Button>
      </Stack>
    )
  } else {
    const { personal, other } = requirements.data.requirements
    const due = [...new Set([...personal, ...other])]
    const bankDue = due.includes('credit_account')
    const providerDue = due.includes('provider_onboarding')
    body =
      due.length === 0 ? (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <CheckCircleOutlineIcon aria-hidden color="success" />
          <Typography data-testid="payout-requirements-none">{t('profile.requirements.nothingDue')}</Typography>
        </Stack>
      ) : (
        <>
          <Typography color="text.secondary" data-testid="payout-requirements-intro">
            {t(requirements.data.sells === false ? 'profile.requirements.introNotSelling' : 'profile.requirements.intro')}
          </Typography>
          <List dense data-testid="payout-requirements-list">
            {due.map((item) => (
              <ListItem key={item} disableGutters data-testid={`payout-requirement-${item}`}>
                <ListItemIcon sx={{ minWidth: 36 }}>
                  {/* A warning only to someone who sells: to a buyer it is what a first sale will ask. */}
                  <ErrorOutlineIcon aria-hidden color={requirements.data.sells === false ? 'action' : 'warning'} />
                </ListItemIcon>
                <ListItemText
                  primary={
                    (knownRequirements as readonly string[]).includes(item)
                      ? t(`profile.requirements.items.${item}`)
                      : t('profile.requirements.items.other')
                  }
                />
              </ListItem>
            ))}
          </List>
          {bankDue && (
            <Button
              variant="contained"
              component={RouterLink}
              to={routeTo('payoutBankDetails')}
              data-testid="payout-requirements-bank-link"
            >
              {t('profile.requirements.addBankDetails')}
            </Button>
          )}
          {providerDue && (
            <Stack spacing={1} sx={{ alignItems: 'flex-start', mt: bankDue ? 1.5 : 0 }}>
              <Typography color="text.secondary">{t('profile.requirements.providerIntro')}</Typography>
              <BusyButton
                variant={bankDue ? 'outlined' : 'contained'}
                onClick={() => onboarding.mutate(routeTo('personalDetails'))}
                busy={opening}
                data-testid="payout-requirements-provider-onboarding"
              >
                {opening ? t('profile.requirements.providerOpening') : t('profile.requirements.providerContinue')}
              </BusyButton>
              {onboarding.isError && (
                <Typography color="error" role="alert" data-testid="payout-requirements-provider-error">
                  {/* Its words live with this card's, not in the first screen's error list (the first-load budget). */}
                  {hasErrorCode(onboarding.error, 'onboarding_not_required')
                    ? t('profile.requirements.providerNotRequired')
                    : errorMessage(t, onboarding.error)}
                </Typography>
              )}
            </Stack>
          )}
        </>
      )
  }

  return (
    <ContentCard testId="payout-requirements">
      <Typography component="h2" variant="h6" sx={{ mb: 1.5 }}>
        {t('profile.requirements.title')}
      </Typography>
      {body}
    </ContentCard>
  )
}

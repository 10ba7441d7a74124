import LogoutIcon from '@mui/icons-material/Logout'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Typography from '@mui/material/Typography'
import { useTranslation } from '../../i18n/react.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { languageNames } from '@pactum/domain/locales'
import { useLocale } from '../../i18n/use-locale.ts'
import { useAuth } from '../../lib/auth/auth-context.tsx'
import { routeTo } from '../../lib/named-routes.ts'
import { useClientConfig } from '../../lib/client-config-context.tsx'
import { ChangeEmail } from './change-email.tsx'
import { CloseAccount } from './close-account.tsx'
import { AuthenticatorApp } from './authenticator-app.tsx'
import { Passkeys } from './passkeys.tsx'
import { ChangePassword } from './change-password.tsx'
import { EmailConfirmation } from './email-confirmation.tsx'
import { NotificationLanguageSelect } from './notification-language-select.tsx'
import { NotificationPreferences } from './notification-preferences.tsx'
import { SignedInSessions } from './signed-in-sessions.tsx'

export function AccountPage() {
  const { t } = useTranslation()
  const { user, signOut } = useAuth()
  const { locale } = useLocale()
  // Only the embedded sign-in keeps the address and the passwords here; an external issuer does it itself.
  const config = useClientConfig()
  return (
    <>
      <PageHeader
        title={t('help.account.title')}
        intro={t('help.account.intro')}
        breadcrumbs={[
          { label: t('menu.myProfile'), to: routeTo('personalDetails') },
          { label: t('profile.tabs.help'), to: routeTo('account') },
          { label: t('help.account.title') },
        ]}
      />
      <ContentCard>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { sm: '180px 1fr' }, gap: 1.5, m: 0, mb: 3 }}>
          <Typography component="dt" color="text.secondary">
            {t('help.account.email')}
          </Typography>
          <Box component="dd" sx={{ m: 0 }}>
            <Typography data-testid="account-email" sx={{ overflowWrap: 'anywhere', mb: 1 }}>
              {user?.profile.email ?? t('profile.details.notProvided')}
            </Typography>
            {user && <EmailConfirmation verified={user.profile.emailVerified} />}
          </Box>
          <Typography component="dt" color="text.secondary">
            {t('help.account.language')}
          </Typography>
          <Typography component="dd" data-testid="account-language" lang={locale.split('_')[0]} sx={{ m: 0 }}>
            {languageNames[locale]}
          </Typography>
        </Box>
        <Box sx={{ mb: 3 }}>
          <NotificationLanguageSelect />
        </Box>
        <Button variant="outlined" startIcon={<LogoutIcon aria-hidden />} onClick={() => void signOut()}>
          {t('help.account.signOut')}
        </Button>
      </ContentCard>
      <ContentCard>
        <NotificationPreferences />
      </ContentCard>
      {config.oidc.supports_email_confirmation && (
        <>
          <ContentCard>
            <ChangeEmail />
          </ContentCard>
          <ContentCard>
            <Passkeys />
          </ContentCard>
          <ContentCard>
            <AuthenticatorApp />
          </ContentCard>
        </>
      )}
      {config.oidc.supports_password_change && (
        <>
          <ContentCard>
            <ChangePassword email={user?.profile.email} />
          </ContentCard>
          <ContentCard>
            <SignedInSessions />
          </ContentCard>
        </>
      )}
      <ContentCard>
        <CloseAccount email={user?.profile.email} onClosed={() => void signOut()} />
      </ContentCard>
    </>
  )
}

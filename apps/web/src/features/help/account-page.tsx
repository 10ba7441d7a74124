import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined'
import LogoutIcon from '@mui/icons-material/Logout'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { languageNames } from '../../i18n/language-names.ts'
import { useLocale } from '../../i18n/use-locale.ts'
import { useAuth } from '../../lib/auth/auth-context.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { useClientConfig } from '../../lib/client-config-context.tsx'
import { routeTo } from '../../lib/named-routes.ts'
import { contactErrorMessage, sendContactMessage } from './contact-api.ts'
import { ChangePassword } from './change-password.tsx'
import { EmailConfirmation } from './email-confirmation.tsx'
import { NotificationLanguageSelect } from './notification-language-select.tsx'
import { SignedInSessions } from './signed-in-sessions.tsx'

/** The subject support filters deletion requests by; not translated, it is for our team. */
export const accountDeletionSubject = 'Account deletion request'

function AccountDeletion({ email }: { email: string | undefined }) {
  const { t } = useTranslation()
  const api = useApiClient()
  const resultModal = useResultModal()
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)

  const confirm = async () => {
    setBusy(true)
    try {
      await sendContactMessage(api, {
        email: email ?? '',
        subject: accountDeletionSubject,
        message: `Please delete the Pactum account registered to ${email ?? 'this user'}.`,
      })
      setOpen(false)
      resultModal.showSuccess(t('help.account.deletion.sent'))
    } catch (error) {
      setOpen(false)
      resultModal.showError(contactErrorMessage(t, error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('help.account.deletion.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('help.account.deletion.intro')}
      </Typography>
      <Button
        variant="outlined"
        color="error"
        startIcon={<DeleteOutlineIcon aria-hidden />}
        onClick={() => setOpen(true)}
        disabled={!email}
        data-testid="request-account-deletion"
      >
        {t('help.account.deletion.button')}
      </Button>
      <ConfirmDialog
        open={open}
        title={t('help.account.deletion.confirmTitle')}
        body={t('help.account.deletion.confirmBody')}
        confirmLabel={t('help.account.deletion.confirm')}
        cancelLabel={t('common.cancel')}
        destructive
        busy={busy}
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
        testId="account-deletion-dialog"
      />
    </>
  )
}

export function AccountPage() {
  const { t } = useTranslation()
  const { user, signOut } = useAuth()
  const { locale } = useLocale()
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
        <AccountDeletion email={user?.profile.email} />
      </ContentCard>
    </>
  )
}

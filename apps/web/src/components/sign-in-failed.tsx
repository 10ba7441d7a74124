import { useTranslation } from '../i18n/react.tsx'
import { FullPageStatus } from './status-message.tsx'

/** The sign-in provider could not be reached: the whole page says so, and reloading tries again. */
export function SignInFailed() {
  const { t } = useTranslation()
  return (
    <FullPageStatus
      title={t('errors.signIn.title')}
      body={t('errors.signIn.body')}
      action={{ label: t('errors.signIn.retry'), onClick: () => window.location.reload() }}
    />
  )
}

import { useEffect, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { Navigate } from 'react-router'
import { FullPageStatus } from '../../components/status-message.tsx'
import { useAuth } from '../../lib/auth/auth-context.tsx'
import { useClientConfig } from '../../lib/client-config-context.tsx'
import { namedRoutes } from '../../lib/named-routes.ts'

/** /login and /register: hand over to the sign-in provider, or go home when already signed in. */
function SignInStartPage({ register }: { register: boolean }) {
  const { t } = useTranslation()
  const { status, user, signIn } = useAuth()
  const config = useClientConfig()
  const [failed, setFailed] = useState(false)
  const mustStart = status === 'ready' && !user
  // Providers without registration get the ordinary sign-in page instead of an error.
  const asRegistration = register && config.oidc.supports_registration

  useEffect(() => {
    if (!mustStart) return
    signIn({ returnTo: namedRoutes.transactions, register: asRegistration }).catch((error: unknown) => {
      console.error(error)
      setFailed(true)
    })
  }, [mustStart, signIn, asRegistration])

  if (user) return <Navigate to={namedRoutes.transactions} replace />
  if (failed) {
    return (
      <FullPageStatus
        title={t('errors.signIn.title')}
        body={t('errors.signIn.body')}
        action={{ label: t('errors.signIn.retry'), onClick: () => window.location.reload() }}
      />
    )
  }
  return (
    <FullPageStatus busy title={t(asRegistration ? 'auth.redirectingToRegistration' : 'app.redirectingToSignIn')} />
  )
}

export function LoginPage() {
  return <SignInStartPage register={false} />
}

export function RegisterPage() {
  return <SignInStartPage register />
}

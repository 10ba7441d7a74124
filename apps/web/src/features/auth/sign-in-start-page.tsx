import { useTranslation } from '../../i18n/react.tsx'
import { Navigate } from 'react-router'
import { SignInFailed } from '../../components/sign-in-failed.tsx'
import { FullPageStatus } from '../../components/status-message.tsx'
import { useAuth } from '../../lib/auth/auth-context.tsx'
import { useSignInRedirect } from '../../lib/auth/use-sign-in-redirect.ts'
import { useClientConfig } from '../../lib/client-config-context.tsx'
import { namedRoutes } from '../../lib/named-routes.ts'

/** /login and /register: hand over to the sign-in provider, or go home when already signed in. */
function SignInStartPage({ register }: { register: boolean }) {
  const { t } = useTranslation()
  const { status, user } = useAuth()
  const config = useClientConfig()
  // Providers without registration get the ordinary sign-in page instead of an error.
  const asRegistration = register && config.oidc.supports_registration
  const failed = useSignInRedirect(status === 'ready' && !user, namedRoutes.transactions, asRegistration)

  if (user) return <Navigate to={namedRoutes.transactions} replace />
  if (failed) return <SignInFailed />
  return <FullPageStatus busy title={t(asRegistration ? 'auth.redirectingToRegistration' : 'app.redirectingToSignIn')} />
}

export function LoginPage() {
  return <SignInStartPage register={false} />
}

export function RegisterPage() {
  return <SignInStartPage register />
}

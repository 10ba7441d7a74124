import type { ReactNode } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { useLocation } from 'react-router'
import { SignInFailed } from '../components/sign-in-failed.tsx'
import { FullPageStatus } from '../components/status-message.tsx'
import { useAuth } from '../lib/auth/auth-context.tsx'
import { useSignInRedirect } from '../lib/auth/use-sign-in-redirect.ts'

/** Sign-in is required on load (spec §1): without a session, go to the provider and come back here. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const { status, user } = useAuth()
  const location = useLocation()
  const returnTo = location.pathname + location.search + location.hash
  const failed = useSignInRedirect(status === 'ready' && !user, returnTo)

  if (failed) return <SignInFailed />
  if (!user) return <FullPageStatus busy title={t(status === 'loading' ? 'app.loading' : 'app.redirectingToSignIn')} />
  return children
}

import type { ReactNode } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { useLocation } from 'react-router'
import { SignInFailed } from '../components/sign-in-failed.tsx'
import { FullPageStatus } from '../components/status-message.tsx'
import { useAuth } from '../lib/auth/auth-context.tsx'
import { useSignInRedirect } from '../lib/auth/use-sign-in-redirect.ts'

/**
 * Sign-in is required on load (spec §1): without a session, go to the
 * provider and come back here. Where `landingFor` gives a page for the
 * path, a visitor without a session sees it instead (the landing of a link
 * they were sent, issue 33 items 8 and 9), which starts the sign-in itself
 * when they choose to.
 */
export function RequireAuth({ children, landingFor }: { children: ReactNode; landingFor?: (pathname: string) => ReactNode | undefined }) {
  const { t } = useTranslation()
  const { status, user } = useAuth()
  const location = useLocation()
  const returnTo = location.pathname + location.search + location.hash
  const anonymousVisitor = status === 'ready' && !user
  const anonymous = anonymousVisitor ? landingFor?.(location.pathname) : undefined
  const failed = useSignInRedirect(anonymousVisitor && anonymous === undefined, returnTo)

  if (anonymousVisitor && anonymous !== undefined) return anonymous
  if (failed) return <SignInFailed />
  if (!user) return <FullPageStatus busy title={t(status === 'loading' ? 'app.loading' : 'app.redirectingToSignIn')} />
  return children
}

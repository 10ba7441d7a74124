import { type ReactNode, useEffect, useState } from 'react'
import { useTranslation } from '../i18n/react.tsx'
import { useLocation } from 'react-router'
import { FullPageStatus } from '../components/status-message.tsx'
import { useAuth } from '../lib/auth/auth-context.tsx'

/** Sign-in is required on load (spec §1): without a session, go to the provider and come back here. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const { status, user, signIn } = useAuth()
  const location = useLocation()
  const [failed, setFailed] = useState(false)
  const returnTo = location.pathname + location.search + location.hash
  const mustSignIn = status === 'ready' && !user

  useEffect(() => {
    if (!mustSignIn) return
    signIn({ returnTo }).catch((error: unknown) => {
      console.error(error)
      setFailed(true)
    })
  }, [mustSignIn, signIn, returnTo])

  if (failed) {
    return (
      <FullPageStatus
        title={t('errors.signIn.title')}
        body={t('errors.signIn.body')}
        action={{ label: t('errors.signIn.retry'), onClick: () => window.location.reload() }}
      />
    )
  }
  if (!user) return <FullPageStatus busy title={t(status === 'loading' ? 'app.loading' : 'app.redirectingToSignIn')} />
  return children
}

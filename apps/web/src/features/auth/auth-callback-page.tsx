import { useEffect, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocation, useNavigate } from 'react-router'
import { FullPageStatus } from '../../components/status-message.tsx'
import { useAuth } from '../../lib/auth/auth-context.tsx'
import { namedRoutes } from '../../lib/named-routes.ts'

/** /auth/callback: the provider sends the person back here with a code to exchange. */
export function AuthCallbackPage() {
  const { t } = useTranslation()
  const { completeSignIn, signIn } = useAuth()
  const navigate = useNavigate()
  const { pathname, search } = useLocation()
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    completeSignIn(`${window.location.origin}${pathname}${search}`)
      .then((returnTo) => navigate(returnTo, { replace: true }))
      .catch((error: unknown) => {
        console.error(error)
        setFailed(true)
      })
  }, [completeSignIn, navigate, pathname, search])

  if (failed) {
    return (
      <FullPageStatus
        title={t('errors.signIn.title')}
        body={t('errors.signIn.body')}
        action={{
          label: t('errors.signIn.retry'),
          onClick: () => void signIn({ returnTo: namedRoutes.transactions }),
        }}
      />
    )
  }
  return <FullPageStatus busy title={t('auth.completingSignIn')} />
}

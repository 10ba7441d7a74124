import { useTranslation } from '../../i18n/react.tsx'
import { Outlet } from 'react-router'
import { SubNavigation } from '../../components/sub-navigation.tsx'
import { namedRoutes } from '../../lib/named-routes.ts'
import { useRouteAllowed } from '../../lib/partner-client/use-route-allowed.ts'

/** Sections of My profile, those the partner client (if any) lets people see; the help pages render inside it too. */
export function ProfileLayout() {
  const { t } = useTranslation()
  const allowed = useRouteAllowed()
  return (
    <>
      <SubNavigation
        label={t('profile.navLabel')}
        items={[
          { label: t('profile.tabs.details'), to: namedRoutes.personalDetails },
          { label: t('profile.tabs.bankDetails'), to: namedRoutes.payoutBankDetails },
          { label: t('profile.tabs.balance'), to: namedRoutes.balance },
          { label: t('profile.tabs.help'), to: namedRoutes.help },
        ].filter((item) => allowed(item.to))}
      />
      <Outlet />
    </>
  )
}

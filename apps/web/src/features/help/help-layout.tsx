import { useTranslation } from '../../i18n/react.tsx'
import { Outlet } from 'react-router'
import { SubNavigation } from '../../components/sub-navigation.tsx'
import { namedRoutes } from '../../lib/named-routes.ts'

export function HelpLayout() {
  const { t } = useTranslation()
  return (
    <>
      <SubNavigation
        label={t('help.navLabel')}
        items={[
          { label: t('help.tabs.account'), to: namedRoutes.account },
          { label: t('help.tabs.faq'), to: namedRoutes.faq },
          { label: t('help.tabs.contactUs'), to: namedRoutes.contactUs },
        ]}
      />
      <Outlet />
    </>
  )
}

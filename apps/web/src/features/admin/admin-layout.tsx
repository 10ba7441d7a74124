import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink, Outlet } from 'react-router'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { SubNavigation } from '../../components/sub-navigation.tsx'
import { useMe } from '../../lib/api/me.ts'
import { namedRoutes } from '../../lib/named-routes.ts'

/** A signed-in person without the admin role: said plainly, with the way back. */
function NotAllowed() {
  const { t } = useTranslation()
  return (
    <>
      <PageHeader title={t('admin.notAllowed.title')} />
      <Alert
        severity="warning"
        data-testid="admin-not-allowed"
        action={
          <Button color="inherit" component={RouterLink} to={namedRoutes.transactions}>
            {t('menu.myTransactions')}
          </Button>
        }
      >
        {t('admin.notAllowed.body')}
      </Alert>
    </>
  )
}

/**
 * The admin console's frame: its sections, shown only to admins. The API
 * refuses everyone else whatever the web shows; this spares them the errors.
 */
export function AdminLayout() {
  const { t } = useTranslation()
  const me = useMe()
  if (me.isPending) return <StatusMessage busy title={t('admin.loading')} headingLevel="h1" />
  if (me.isError) return <LoadErrorAlert error={me.error} onRetry={() => void me.refetch()} />
  if (!me.data.roles.includes('admin')) return <NotAllowed />
  return (
    <>
      <SubNavigation
        label={t('admin.navLabel')}
        items={[
          { label: t('admin.tabs.transactions'), to: namedRoutes.admin, end: true },
          { label: t('admin.tabs.auditLog'), to: namedRoutes.adminAuditLog },
          { label: t('admin.tabs.ledger'), to: namedRoutes.adminLedger },
          { label: t('admin.tabs.clients'), to: namedRoutes.adminClients },
          { label: t('admin.tabs.devMailbox'), to: namedRoutes.adminDevMailbox },
        ]}
      />
      <Outlet />
    </>
  )
}

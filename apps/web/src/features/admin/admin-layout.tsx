import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink, Outlet } from 'react-router'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { SubNavigation } from '../../components/sub-navigation.tsx'
import { useResendEmailConfirmation } from '../../lib/api/email-confirmation.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { useMe } from '../../lib/api/me.ts'
import { namedRoutes, routeTo } from '../../lib/named-routes.ts'

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
 * An address listed as an administrator's that its owner has not confirmed
 * yet: the role waits for the e-mailed link (issue 30), and the person can
 * have it sent again from here.
 */
function ConfirmAddressFirst({ email }: { email: string }) {
  const { t } = useTranslation()
  const resend = useResendEmailConfirmation()
  return (
    <>
      <PageHeader title={t('admin.confirmFirst.title')} />
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="info" data-testid="admin-confirm-address-first">
          {t('admin.confirmFirst.body', { email })}
        </Alert>
        <Button
          variant="outlined"
          onClick={() => resend.mutate()}
          loading={resend.isPending}
          disabled={resend.isSuccess}
          data-testid="admin-resend-confirmation"
        >
          {t('admin.confirmFirst.resend')}
        </Button>
        {resend.isSuccess && (
          <Alert severity="success" role="status" data-testid="admin-confirmation-sent">
            {t('admin.confirmFirst.sent', { email: resend.data.email })}
          </Alert>
        )}
        {resend.isError && (
          <Alert severity="error" role="alert">
            {errorMessage(t, resend.error)}
          </Alert>
        )}
      </Stack>
    </>
  )
}

/**
 * A confirmed administrator's address signed in with the password alone:
 * the role waits for a sign-in with a second factor (ADMIN_REQUIRE_MFA,
 * issue 30), which the Account page sets up.
 */
function SecondFactorFirst() {
  const { t } = useTranslation()
  return (
    <>
      <PageHeader title={t('admin.secondFactorFirst.title')} />
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="info" data-testid="admin-second-factor-first">
          {t('admin.secondFactorFirst.body')}
        </Alert>
        <Button variant="outlined" component={RouterLink} to={routeTo('account')} data-testid="admin-set-up-second-factor">
          {t('admin.secondFactorFirst.action')}
        </Button>
      </Stack>
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
  if (!me.data.roles.includes('admin')) {
    if (!me.data.pending_roles.includes('admin')) return <NotAllowed />
    return me.data.pending_role_needs.includes('email_confirmation') ? <ConfirmAddressFirst email={me.data.email} /> : <SecondFactorFirst />
  }
  return (
    <>
      <SubNavigation
        label={t('admin.navLabel')}
        items={[
          { label: t('admin.tabs.transactions'), to: namedRoutes.admin, end: true },
          { label: t('admin.tabs.cases'), to: namedRoutes.adminCases },
          { label: t('admin.tabs.auditLog'), to: namedRoutes.adminAuditLog },
          { label: t('admin.tabs.ledger'), to: namedRoutes.adminLedger },
          { label: t('admin.tabs.reconciliation'), to: namedRoutes.adminReconciliation },
          { label: t('admin.tabs.chargebacks'), to: namedRoutes.adminChargebacks },
          { label: t('admin.tabs.clients'), to: namedRoutes.adminClients },
          { label: t('admin.tabs.devMailbox'), to: namedRoutes.adminDevMailbox },
        ]}
      />
      <Outlet />
    </>
  )
}

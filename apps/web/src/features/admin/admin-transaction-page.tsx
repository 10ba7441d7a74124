import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import { useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { useParams } from 'react-router'
import { LoadErrorAlert } from '../../components/load-error-alert.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { formatMoney } from '../../lib/money.ts'
import { namedRoutes } from '../../lib/named-routes.ts'
import { AdminActionDialog } from './admin-action-dialog.tsx'
import { AdminDecideDialog } from './admin-decide-dialog.tsx'
import { type AdminAction, useAdminTransaction } from './admin-api.ts'
import { Details, escrowBalance } from './admin-transaction-details.tsx'
import { SandboxDisputePanel } from './sandbox-dispute-dialog.tsx'

/** One transaction as an admin sees it, with the actions that settle it. */
export function AdminTransactionPage() {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const toast = useToast()
  const { id = '' } = useParams()
  const query = useAdminTransaction(id)
  const [action, setAction] = useState<AdminAction | null>(null)
  const [deciding, setDeciding] = useState(false)
  const crumbs = [{ label: t('admin.tabs.transactions'), to: namedRoutes.admin }, { label: t('admin.detail.title') }]

  if (query.isPending) return <StatusMessage busy title={t('admin.loading')} headingLevel="h1" />
  if (query.isError)
    return (
      <>
        <PageHeader title={t('admin.detail.title')} breadcrumbs={crumbs} />
        <LoadErrorAlert error={query.error} onRetry={() => void query.refetch()} />
      </>
    )

  const detail = query.data
  const { transaction } = detail
  // The engine's own answer (available_steps): a card dispute's freeze and an open fraud warning are its rules, not the page's.
  const steps = new Set(detail.available_steps)
  const amount = formatMoney(escrowBalance(detail), transaction.currency, locale)
  const recipient = (to: 'buyer' | 'seller') => (to === 'buyer' ? detail.buyer_email : detail.seller_email) ?? '—'
  return (
    <>
      <PageHeader title={t('admin.detail.title')} breadcrumbs={crumbs} />
      {steps.size > 0 && (
        <Stack direction="row" spacing={1} sx={{ mb: 3, flexWrap: 'wrap', gap: 1 }} data-testid="admin-actions">
          {steps.has('confirm_delivery') && (
            <Button variant="outlined" onClick={() => setAction({ type: 'confirm_delivery' })} data-testid="admin-confirm-delivery">
              {t('admin.actions.confirmDelivery.button')}
            </Button>
          )}
          {steps.has('clear_fraud_warning') && (
            <Button variant="outlined" onClick={() => setAction({ type: 'clear_fraud_warning' })} data-testid="admin-clear-fraud-warning">
              {t('admin.actions.clearFraudWarning.button')}
            </Button>
          )}
          {steps.has('decide') && detail.case && (
            <Button variant="contained" onClick={() => setDeciding(true)} data-testid="admin-decide">
              {t('admin.actions.decide.button')}
            </Button>
          )}
          {steps.has('release_to_seller') && (
            <Button
              variant="outlined"
              onClick={() => setAction({ type: 'release_funds', to: 'seller' })}
              data-testid="admin-release-seller"
            >
              {t('admin.actions.releaseToSeller.button')}
            </Button>
          )}
          {steps.has('refund_buyer') && (
            <Button
              variant="outlined"
              color="error"
              onClick={() => setAction({ type: 'release_funds', to: 'buyer' })}
              data-testid="admin-release-buyer"
            >
              {t('admin.actions.refundBuyer.button')}
            </Button>
          )}
        </Stack>
      )}
      {deciding && detail.case && (
        <AdminDecideDialog
          dispute={detail.case}
          onClose={() => setDeciding(false)}
          onDone={() => {
            setDeciding(false)
            toast.show(t('admin.actions.done'), { severity: 'success' })
          }}
        />
      )}
      {action && (
        <AdminActionDialog
          transactionId={transaction.id}
          action={action}
          amount={amount}
          recipient={recipient(action.type === 'release_funds' ? action.to : 'buyer')}
          onClose={() => setAction(null)}
          onDone={() => {
            setAction(null)
            toast.show(t('admin.actions.done'), { severity: 'success' })
          }}
        />
      )}
      <Details detail={detail} />
      <SandboxDisputePanel detail={detail} />
    </>
  )
}

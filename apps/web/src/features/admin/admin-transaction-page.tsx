import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import { isTerminal } from '@pactum/domain/transactions/statuses'
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
  const open = !isTerminal({ kind: transaction.type, status: transaction.status })
  // A card dispute on held money freezes the sale: the engine refuses every step until the bank decides (decision 109).
  const frozen = transaction.chargeback?.frozen === true && ['needs_response', 'under_review'].includes(transaction.chargeback.status)
  const steps = open && !frozen
  const clearable = open && detail.fraud_warning !== null && detail.fraud_warning.cleared_at === null
  const amount = formatMoney(escrowBalance(detail), transaction.currency, locale)
  const recipient = (to: 'buyer' | 'seller') => (to === 'buyer' ? detail.buyer_email : detail.seller_email) ?? '—'
  return (
    <>
      <PageHeader title={t('admin.detail.title')} breadcrumbs={crumbs} />
      {(steps || clearable) && (
        <Stack direction="row" spacing={1} sx={{ mb: 3, flexWrap: 'wrap', gap: 1 }} data-testid="admin-actions">
          {steps && transaction.type === 'online' && transaction.status === 'tracked' && (
            <Button variant="outlined" onClick={() => setAction({ type: 'confirm_delivery' })} data-testid="admin-confirm-delivery">
              {t('admin.actions.confirmDelivery.button')}
            </Button>
          )}
          {clearable && (
            <Button variant="outlined" onClick={() => setAction({ type: 'clear_fraud_warning' })} data-testid="admin-clear-fraud-warning">
              {t('admin.actions.clearFraudWarning.button')}
            </Button>
          )}
          {steps && detail.case && transaction.status === 'complained' && (
            <Button variant="contained" onClick={() => setDeciding(true)} data-testid="admin-decide">
              {t('admin.actions.decide.button')}
            </Button>
          )}
          {/* An open fraud warning refuses whatever would pay the seller (fraud_warning_open) until it is cleared. */}
          {steps && !clearable && (
            <Button
              variant="outlined"
              onClick={() => setAction({ type: 'release_funds', to: 'seller' })}
              data-testid="admin-release-seller"
            >
              {t('admin.actions.releaseToSeller.button')}
            </Button>
          )}
          {steps && (
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

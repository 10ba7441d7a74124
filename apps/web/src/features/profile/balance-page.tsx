import { useTranslation } from '../../i18n/react.tsx'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { canRetry } from '../../lib/api/can-retry.ts'
import { errorMessage } from '../../lib/api/error-message.ts'
import { hasPayoutInFlight, useBalance, usePayouts } from './balance-api.ts'
import { PayoutsCard } from './payouts-card.tsx'
import { BalanceCard } from './balance-card.tsx'

/** /profile/balance: the seller's money at the payment provider and its way to their bank. */
export function BalancePage() {
  const { t } = useTranslation()
  const payouts = usePayouts()
  const balance = useBalance(payouts.data ? hasPayoutInFlight(payouts.data) : false)

  let body
  if (balance.isPending || payouts.isPending) {
    body = (
      <ContentCard testId="balance-loading">
        <StatusMessage busy title={t('profile.balance.loading')} />
      </ContentCard>
    )
  } else if (balance.isError || payouts.isError) {
    body = (
      <ContentCard testId="balance-error">
        <StatusMessage
          title={t('profile.balance.loadFailed')}
          body={errorMessage(t, balance.error ?? payouts.error)}
          action={
            canRetry(balance.error ?? payouts.error)
              ? {
                  label: t('common.retry'),
                  onClick: () => {
                    if (balance.isError) void balance.refetch()
                    if (payouts.isError) void payouts.refetch()
                  },
                }
              : undefined
          }
        />
      </ContentCard>
    )
  } else {
    body = (
      <>
        <BalanceCard balance={balance.data} />
        <PayoutsCard payouts={payouts.data} />
      </>
    )
  }

  return (
    <>
      <PageHeader title={t('profile.balance.title')} intro={t('profile.balance.intro')} />
      {body}
    </>
  )
}

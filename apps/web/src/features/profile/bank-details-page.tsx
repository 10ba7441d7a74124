import { useTranslation } from '../../i18n/react.tsx'
import { useSearchParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { canRetry } from '../../lib/api/can-retry.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { useDebitAccount } from './bank-details-api.ts'
import { hasErrorCode, usePersonalProfile } from '../../lib/api/profile-queries.ts'
import { StoredAccount } from './stored-bank-account.tsx'
import { BankEditor } from './bank-editor.tsx'

/** /profile/payment/bank-details; `?edit=true` opens the bank form. */
export function BankDetailsPage() {
  const { t } = useTranslation()
  const [query] = useSearchParams()
  const editing = query.get('edit') === 'true'
  const profile = usePersonalProfile()
  const debit = useDebitAccount()

  let body
  if (profile.isPending || debit.isPending) {
    body = (
      <ContentCard testId="bank-details-loading">
        <StatusMessage busy title={t('profile.bankDetails.loading')} />
      </ContentCard>
    )
  } else if (profile.isError && hasErrorCode(profile.error, 'active_country_not_set')) {
    body = (
      <ContentCard testId="bank-details-error">
        <StatusMessage title={t('profile.personal.noCountryTitle')} body={t('profile.personal.noCountryBody')} />
      </ContentCard>
    )
  } else if (profile.isError || debit.isError) {
    body = (
      <ContentCard testId="bank-details-error">
        <StatusMessage
          title={t('profile.bankDetails.loadFailed')}
          action={
            canRetry(profile.error ?? debit.error)
              ? {
                  label: t('common.retry'),
                  onClick: () => {
                    if (profile.isError) void profile.refetch()
                    if (debit.isError) void debit.refetch()
                  },
                }
              : undefined
          }
        />
      </ContentCard>
    )
  } else {
    const stored = debit.data.bank_account
    body =
      stored && !editing ? (
        <StoredAccount account={stored} />
      ) : (
        <BankEditor key={profile.data.address?.country_code ?? ''} profile={profile.data} editing={editing} hasStored={Boolean(stored)} />
      )
  }

  return (
    <>
      <PageHeader
        title={t('profile.bankDetails.title')}
        intro={t('profile.bankDetails.intro')}
        breadcrumbs={
          editing
            ? [{ label: t('profile.bankDetails.title'), to: routeTo('payoutBankDetails') }, { label: t('profile.bankDetails.editCrumb') }]
            : undefined
        }
      />
      {body}
    </>
  )
}

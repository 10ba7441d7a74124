import AccountBalanceOutlinedIcon from '@mui/icons-material/AccountBalanceOutlined'
import EditIcon from '@mui/icons-material/EditOutlined'
import LinkIcon from '@mui/icons-material/LinkOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { BankAccount, LinkToken } from '@pactum/contracts/bank-accounts'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { canRetry } from '../../lib/api/can-retry.ts'
import { useClientConfig } from '../../lib/client-config-context.tsx'
import { routeTo } from '../../lib/named-routes.ts'
import { completeSandboxLink, fetchLinkToken, linkBankDetails, useDebitAccount, useRefreshBankDetails } from './bank-details-api.ts'
import { BankDetailsForm } from './bank-details-form.tsx'
import type { PersonalProfile } from '../../lib/api/personal-profile.ts'
import { hasErrorCode, usePersonalProfile } from '../../lib/api/profile-queries.ts'
import { SandboxLinkDialog } from './sandbox-link-dialog.tsx'

// Plaid Link (and react-plaid-link) only when the server's bank link is Plaid, and only on this step.
const PlaidLinkLauncher = lazy(() => import('./plaid-link-launcher.tsx').then((module) => ({ default: module.PlaidLinkLauncher })))

/** Spec §6: the bank-linking provider is offered only for country us. */
const bankLinkCountries = ['us']

function StoredAccount({ account }: { account: BankAccount }) {
  const { t } = useTranslation()
  const rows = [
    { label: t('profile.bankDetails.fields.account_holder_name'), value: account.account_holder_name, testId: 'bank-stored-holder' },
    { label: t('profile.bankDetails.accountNumber'), value: `···· ${account.last4}`, testId: 'bank-stored-number' },
    ...(account.bank_name ? [{ label: t('profile.bankDetails.bankName'), value: account.bank_name, testId: 'bank-stored-bank' }] : []),
    ...(account.routing_number
      ? [{ label: t('profile.bankDetails.routing'), value: account.routing_number, testId: 'bank-stored-routing' }]
      : []),
    ...(account.account_type
      ? [{ label: t('profile.bankDetails.fields.account_type'), value: t(`profile.bankDetails.accountTypes.${account.account_type}`), testId: 'bank-stored-type' }]
      : []),
    { label: t('profile.bankDetails.currency'), value: account.currency.toUpperCase(), testId: 'bank-stored-currency' },
  ]
  return (
    <ContentCard testId="bank-details-stored">
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
        <AccountBalanceOutlinedIcon aria-hidden sx={{ color: 'primary.main' }} />
        <Typography component="h2" variant="h6">
          {t('profile.bankDetails.storedTitle')}
        </Typography>
      </Stack>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { sm: '180px 1fr' }, gap: 1.5, m: 0, mb: 2 }}>
        {rows.map((row) => (
          <Box key={row.testId} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary">
              {row.label}
            </Typography>
            <Typography component="dd" data-testid={row.testId} sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {row.value}
            </Typography>
          </Box>
        ))}
      </Box>
      <Button
        variant="contained"
        startIcon={<EditIcon aria-hidden />}
        component={RouterLink}
        to={routeTo('payoutBankDetails', {}, { edit: 'true' })}
        data-testid="bank-edit"
      >
        {t('profile.bankDetails.edit')}
      </Button>
    </ContentCard>
  )
}

function BankEditor({ profile, editing, hasStored }: { profile: PersonalProfile; editing: boolean; hasStored: boolean }) {
  const { t } = useTranslation()
  const api = useApiClient()
  const navigate = useNavigate()
  const resultModal = useResultModal()
  const { support_email: supportEmail } = useClientConfig()
  const refresh = useRefreshBankDetails()
  const country = (profile.address?.country_code ?? '').toLowerCase()
  const canLink = bankLinkCountries.includes(country)
  const [manual, setManual] = useState(!canLink)
  const [link, setLink] = useState<LinkToken | null>(null)
  const [linking, setLinking] = useState(false)
  const holderName = [profile.name?.first, profile.name?.last].filter(Boolean).join(' ')

  const done = () => {
    void refresh()
    if (editing) void navigate(routeTo('payoutBankDetails'), { replace: true })
  }
  const linkFailed = () => {
    setLink(null)
    resultModal.showError(t('profile.bankDetails.linkFailed', { email: supportEmail }), { autoCloseMs: 3000 })
  }

  const startLink = async () => {
    setLinking(true)
    try {
      setLink(await fetchLinkToken(api))
    } catch {
      linkFailed()
    } finally {
      setLinking(false)
    }
  }

  const finishLink = async (exchange: () => Promise<unknown>) => {
    setLinking(true)
    try {
      await exchange()
      setLink(null)
      resultModal.showSuccess(t('profile.bankDetails.linked'), { autoCloseMs: 3000, onClose: done })
    } catch {
      linkFailed()
    } finally {
      setLinking(false)
    }
  }
  const finishSandboxLink = (institution: 'success' | 'failure') => {
    if (link) void finishLink(() => completeSandboxLink(api, link.link_token, institution))
  }

  const cancel = editing ? (
    <Button component={RouterLink} to={routeTo('payoutBankDetails')} data-testid="bank-cancel">
      {t('profile.bankDetails.cancel')}
    </Button>
  ) : undefined

  return (
    <ContentCard testId="bank-details-form">
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {hasStored ? t('profile.bankDetails.editTitle') : t('profile.bankDetails.emptyTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('profile.bankDetails.emptyBody')}
      </Typography>
      {manual ? (
        <BankDetailsForm
          country={country}
          holderName={holderName}
          onSaved={done}
          actions={
            <>
              {canLink && (
                <Button onClick={() => setManual(false)} data-testid="bank-back-to-options">
                  {t('profile.bankDetails.back')}
                </Button>
              )}
              {cancel}
            </>
          }
        />
      ) : (
        <Stack spacing={1.5} sx={{ maxWidth: 440 }} data-testid="bank-link-options">
          <Button variant="contained" size="large" startIcon={<LinkIcon aria-hidden />} onClick={() => void startLink()} disabled={linking || link !== null} data-testid="bank-link-start">
            {t('profile.bankDetails.linkBank')}
          </Button>
          <Button variant="outlined" size="large" onClick={() => setManual(true)} disabled={linking} data-testid="bank-enter-manually">
            {t('profile.bankDetails.enterManually')}
          </Button>
          {cancel}
        </Stack>
      )}
      <SandboxLinkDialog open={link?.provider === 'sandbox'} busy={linking} onChoose={finishSandboxLink} onCancel={() => setLink(null)} />
      {link?.provider === 'plaid' && (
        <Suspense fallback={null}>
          <PlaidLinkLauncher
            linkToken={link.link_token}
            onLinked={({ publicToken, accountId }) => void finishLink(() => linkBankDetails(api, publicToken, accountId))}
            onCancelled={() => setLink(null)}
            onFailed={linkFailed}
          />
        </Suspense>
      )}
    </ContentCard>
  )
}

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
            ? [
                { label: t('profile.bankDetails.title'), to: routeTo('payoutBankDetails') },
                { label: t('profile.bankDetails.editCrumb') },
              ]
            : undefined
        }
      />
      {body}
    </>
  )
}

import LinkIcon from '@mui/icons-material/LinkOutlined'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { LinkToken } from '@pactum/contracts/bank-accounts'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink, useNavigate } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useToast } from '../../components/toasts.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { useClientConfig } from '../../lib/client-config-context.tsx'
import { routeTo } from '../../lib/named-routes.ts'
import { completeSandboxLink, fetchLinkToken, linkBankDetails, useRefreshBankDetails } from './bank-details-api.ts'
import { BankDetailsForm } from './bank-details-form.tsx'
import type { PersonalProfile } from '../../lib/api/personal-profile.ts'
import { SandboxLinkDialog } from './sandbox-link-dialog.tsx'
import { type BankLinkFailure, failureOfExchange } from './bank-link-failure.ts'

// Plaid Link (and react-plaid-link) only when the server's bank link is Plaid, and only on this step.
const PlaidLinkLauncher = lazy(() => import('./plaid-link-launcher.tsx').then((module) => ({ default: module.PlaidLinkLauncher })))

/** Spec §6: the bank link's outcome, success or failure, shows for 3 s. */
const bankLinkMessageMs = 3000

/** Spec §6: the bank-linking provider is offered only for country us. */
const bankLinkCountries = ['us']

/** The bank account form, or where a bank link is offered (country us) the choice of linking the bank or typing the account. */
export function BankEditor({ profile, editing, hasStored }: { profile: PersonalProfile; editing: boolean; hasStored: boolean }) {
  const { t } = useTranslation()
  const api = useApiClient()
  const navigate = useNavigate()
  const resultModal = useResultModal()
  const toast = useToast()
  const { support_email: supportEmail } = useClientConfig()
  const refresh = useRefreshBankDetails()
  const country = (profile.address?.country_code ?? '').toLowerCase()
  const canLink = bankLinkCountries.includes(country)
  const [manual, setManual] = useState(!canLink)
  const [link, setLink] = useState<LinkToken | null>(null)
  const [linking, setLinking] = useState(false)
  const holderName = [profile.name?.first, profile.name?.last].filter(Boolean).join(' ')
  const refreshLater = useRef<ReturnType<typeof setTimeout>>(undefined)
  // Left before the 3 s were over: the next visit reads the account afresh anyway.
  useEffect(() => () => clearTimeout(refreshLater.current), [])

  const done = () => {
    void refresh()
    if (editing) void navigate(routeTo('payoutBankDetails'), { replace: true })
  }
  // The spec's words and support address stay; what is known of the cause comes first.
  const linkFailed = (failure: BankLinkFailure) => {
    setLink(null)
    const contact = t('profile.bankDetails.linkFailed', { email: supportEmail })
    const message = failure === 'unknown' ? contact : `${t(`profile.bankDetails.linkFailure.${failure}`)} ${contact}`
    resultModal.showError(message, { autoCloseMs: bankLinkMessageMs })
  }

  const startLink = async () => {
    setLinking(true)
    try {
      setLink(await fetchLinkToken(api))
    } catch {
      linkFailed('not_started')
    } finally {
      setLinking(false)
    }
  }

  const finishLink = async (exchange: () => Promise<unknown>) => {
    setLinking(true)
    try {
      await exchange()
      setLink(null)
      // A small save: said by a toast, not the full-screen result (issue 33 item 4); spec §6 refreshes once its 3 s are over.
      toast.show(t('profile.bankDetails.linked'), { severity: 'success', durationMs: bankLinkMessageMs })
      refreshLater.current = setTimeout(done, bankLinkMessageMs)
    } catch (error) {
      linkFailed(failureOfExchange(error))
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
          <Button
            variant="contained"
            size="large"
            startIcon={<LinkIcon aria-hidden />}
            onClick={() => void startLink()}
            disabled={linking || link !== null}
            data-testid="bank-link-start"
          >
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
            onFailed={() => linkFailed('screen_failed')}
          />
        </Suspense>
      )}
    </ContentCard>
  )
}

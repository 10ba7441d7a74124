import LinkIcon from '@mui/icons-material/LinkOutlined'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { LinkToken } from '@pactum/contracts/bank-accounts'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { Link as RouterLink, useNavigate } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { useResultModal } from '../../components/result-modal.tsx'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { useClientConfig } from '../../lib/client-config-context.tsx'
import { routeTo } from '../../lib/named-routes.ts'
import { completeSandboxLink, fetchLinkToken, linkBankDetails, useRefreshBankDetails } from './bank-details-api.ts'
import { BankDetailsForm } from './bank-details-form.tsx'
import type { PersonalProfile } from '../../lib/api/personal-profile.ts'
import { SandboxLinkDialog } from './sandbox-link-dialog.tsx'

// Plaid Link (and react-plaid-link) only when the server's bank link is Plaid, and only on this step.
const PlaidLinkLauncher = lazy(() => import('./plaid-link-launcher.tsx').then((module) => ({ default: module.PlaidLinkLauncher })))

/** Spec §6: the bank-linking provider is offered only for country us. */
const bankLinkCountries = ['us']

/** The bank account form, or where a bank link is offered (country us) the choice of linking the bank or typing the account. */
export function BankEditor({ profile, editing, hasStored }: { profile: PersonalProfile; editing: boolean; hasStored: boolean }) {
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
            onFailed={linkFailed}
          />
        </Suspense>
      )}
    </ContentCard>
  )
}

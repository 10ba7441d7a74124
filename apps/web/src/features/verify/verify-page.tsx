import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Container from '@mui/material/Container'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { PublicVerification } from '@pactum/contracts/verify'
import { isVerifyCode } from '@pactum/domain/verify-code'
import type { ReactNode } from 'react'
import { useParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { type DetailsRow, DetailsList } from '../../components/details-list.tsx'
import { PactumLogo } from '../../components/pactum-logo.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { StatusMessage } from '../../components/status-message.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { canRetry } from '../../lib/api/can-retry.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { formatDate } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { useVerification } from './verify-api.ts'

/**
 * `/verify/:code` (issue 35 item 4, docs/decisions/114-escrow-you-can-check.md):
 * anyone, signed in or not, checks that Pactum holds (or held) a sale's
 * money. The facts come from Pactum's own API on Pactum's own address, which
 * is the whole point: the page says how to tell a copy on another address.
 */
export function VerifyPage() {
  const { t } = useTranslation()
  const { code = '' } = useParams()
  const wellFormed = isVerifyCode(code)
  const verification = useVerification(code, wellFormed)
  const notFound = !wellFormed || (verification.isError && errorCodeOf(verification.error) === 'not_found')

  return (
    <VerifyFrame>
      {notFound ? (
        <>
          <PageHeader title={t('verify.notFoundTitle')} />
          <ContentCard testId="verify-not-found">
            <Alert severity="warning">{t('verify.notFoundBody')}</Alert>
          </ContentCard>
        </>
      ) : verification.isPending ? (
        <ContentCard testId="verify-loading">
          <StatusMessage busy title={t('verify.loading')} />
        </ContentCard>
      ) : verification.isError ? (
        <>
          <PageHeader title={t('verify.errorTitle')} />
          <ContentCard testId="verify-error">
            <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
              <Alert severity="error">{errorMessage(t, verification.error)}</Alert>
              {/* Only where another try can answer differently (decision 087): no answer, a 5xx, a 429. */}
              {canRetry(verification.error) && (
                <Button variant="outlined" onClick={() => void verification.refetch()}>
                  {t('verify.retry')}
                </Button>
              )}
            </Stack>
          </ContentCard>
        </>
      ) : (
        <Verified facts={verification.data} />
      )}
      <FakeSiteNote />
    </VerifyFrame>
  )
}

function VerifyFrame({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'grey.50' }}>
      <Box component="header" sx={{ px: 3, py: 2 }}>
        <PactumLogo />
      </Box>
      <Container component="main" maxWidth="sm" sx={{ pb: 6 }}>
        {children}
      </Container>
    </Box>
  )
}

function Verified({ facts }: { facts: PublicVerification }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const amount = formatMoney(facts.amount, facts.currency, locale)
  const date = (iso: string | null) => (iso ? formatDate(iso, locale) : '')
  const headline = t(`verify.headline.${facts.state}`, { amount, date: date(facts.released ?? facts.refunded) })
  const party = (who: PublicVerification['buyer']) =>
    who === null ? t('verify.notJoined') : t('verify.party', { name: who.first_name ?? t('verify.noName'), email: who.email })
  const rows: DetailsRow[] = [
    { label: t('verify.labels.state'), value: t(`verify.states.${facts.state}`), testId: 'verify-state' },
    { label: t('verify.labels.amount'), value: amount, testId: 'verify-amount' },
    { label: t('verify.labels.created'), value: date(facts.created), testId: 'verify-created' },
    ...(facts.paid ? [{ label: t('verify.labels.paid'), value: date(facts.paid), testId: 'verify-paid' }] : []),
    ...(facts.released ? [{ label: t('verify.labels.released'), value: date(facts.released), testId: 'verify-released' }] : []),
    ...(facts.refunded ? [{ label: t('verify.labels.refunded'), value: date(facts.refunded), testId: 'verify-refunded' }] : []),
    { label: t('verify.labels.seller'), value: party(facts.seller), testId: 'verify-seller' },
    { label: t('verify.labels.buyer'), value: party(facts.buyer), testId: 'verify-buyer' },
    ...(facts.partner_name ? [{ label: t('verify.labels.partner'), value: facts.partner_name, testId: 'verify-partner' }] : []),
  ]
  const moneyIn = facts.state === 'held' || facts.state === 'released' || facts.state === 'refunded'
  return (
    <>
      <PageHeader title={headline} intro={t('verify.intro')} />
      <ContentCard testId="verify-facts">
        <Stack spacing={2}>
          <Alert severity={moneyIn ? 'success' : 'info'} data-testid="verify-headline-note">
            {moneyIn ? t(`verify.states.${facts.state}`) : t('verify.awaitingNote', { amount })}
          </Alert>
          <Typography component="h2" variant="h6">
            {t('verify.factsHeading')}
          </Typography>
          <DetailsList rows={rows} />
        </Stack>
      </ContentCard>
    </>
  )
}

function FakeSiteNote() {
  const { t } = useTranslation()
  return (
    <ContentCard testId="verify-fake-site-note">
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('verify.fakeHeading')}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3, '& li': { mb: 1 } }}>
        <li>
          <Typography>{t('verify.fakeTips.addressBar', { host: window.location.host })}</Typography>
        </li>
        <li>
          <Typography>{t('verify.fakeTips.similar')}</Typography>
        </li>
        <li>
          <Typography>{t('verify.fakeTips.checkout')}</Typography>
        </li>
      </Box>
    </ContentCard>
  )
}

import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Container from '@mui/material/Container'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { claimSecretSchema, type InvitationLanding } from '@pactum/contracts/guest-transactions'
import { readTransactionType } from '@pactum/contracts/transactions'
import { guestInvitationValidityDays } from '@pactum/domain/guest-invitation-timing'
import { useLocation, useParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PactumLogo } from '../../components/pactum-logo.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { SignInFailed } from '../../components/sign-in-failed.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { useSignInRedirect } from '../../lib/auth/use-sign-in-redirect.ts'
import { formatMoney } from '../../lib/money.ts'
import { useState } from 'react'
import { useInvitationLanding } from './claim-api.ts'
import { PreviewLoading } from './preview-loading.tsx'

type Start = { register: boolean; loginHint: string | undefined }

/**
 * What an invitation link shows to someone not signed in (issue 33 item 8),
 * instead of a bare sign-in page: who invited them to what, how Pactum
 * protects them, and the two ways in (sign-up with the invited address
 * filled in, or sign-in), both coming back to this link to claim it.
 */
export function InvitationLandingPage() {
  const { t } = useTranslation()
  const { claim_secret: secret = '', type } = useParams()
  const location = useLocation()
  const wellFormed = readTransactionType(type) !== null && claimSecretSchema.safeParse(secret).success
  const landing = useInvitationLanding(secret, wellFormed)
  const [start, setStart] = useState<Start | null>(null)
  const failed = useSignInRedirect(start !== null, location.pathname + location.search, start?.register, start?.loginHint)
  const goSignIn = (register: boolean) => setStart({ register, loginHint: landing.data?.invited_email })

  if (failed) return <SignInFailed />
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'grey.50' }}>
      <Box component="header" sx={{ px: 3, py: 2 }}>
        <PactumLogo />
      </Box>
      <Container component="main" maxWidth="sm" sx={{ pb: 6 }}>
        {!wellFormed ? (
          <Problem title={t('guestClaim.problemTitle')} body={t('guestClaim.invalidLink')} testId="landing-invalid" />
        ) : landing.isPending ? (
          <PreviewLoading label={t('guestClaim.loading')} />
        ) : landing.isError ? (
          <Problem
            {...problemOf(t, landing.error)}
            testId="landing-problem"
            // Someone who accepted it already, or holds an account anyway, may still go on to sign in.
            action={{ label: t('invitationLanding.haveAccount'), onClick: () => goSignIn(false), busy: start !== null }}
          />
        ) : (
          <Offer landing={landing.data} busy={start !== null} onStart={goSignIn} />
        )}
      </Container>
    </Box>
  )
}

function problemOf(t: ReturnType<typeof useTranslation>['t'], error: unknown): { title: string; body: string } {
  switch (errorCodeOf(error)) {
    case 'claim_link_expired':
      return { title: t('guestInvitation.expiredTitle'), body: t('guestInvitation.expiredBody', { days: guestInvitationValidityDays }) }
    case 'already_claimed':
      return { title: t('guestClaim.usedTitle'), body: t('guestClaim.usedBody') }
    default:
      return { title: t('guestClaim.problemTitle'), body: errorMessage(t, error) }
  }
}

function Offer({ landing, busy, onStart }: { landing: InvitationLanding; busy: boolean; onStart: (register: boolean) => void }) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  const values = {
    name: landing.inviter_first_name ?? '',
    item: landing.description,
    price: formatMoney(landing.price, landing.currency, locale),
  }
  const role = landing.role === 'buyer' ? 'Buyer' : 'Seller'
  const kind = landing.type === 'f2f' ? 'F2f' : 'Online'
  // A partner's invitation has no person behind it to name.
  const who = landing.inviter_first_name ? 'named' : 'partner'
  return (
    <>
      <PageHeader title={t(`invitationLanding.${who}.to${role}${kind}` as const, values)} />
      <ContentCard testId="landing-offer">
        <Stack spacing={2.5}>
          <Typography data-testid="landing-protection">
            {t(landing.role === 'buyer' ? 'invitationLanding.protectsBuyer' : 'invitationLanding.protectsSeller')}
          </Typography>
          {/* A long address breaks anywhere rather than run out of the card on a phone. */}
          <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }} data-testid="landing-sent-to">
            {t('invitationLanding.sentTo', { email: landing.invited_email })}
          </Typography>
          <Typography color="text.secondary">{t('invitationLanding.next')}</Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button variant="contained" size="large" onClick={() => onStart(true)} disabled={busy} data-testid="landing-register">
              {t('invitationLanding.createAccount')}
            </Button>
            <Button variant="outlined" size="large" onClick={() => onStart(false)} disabled={busy} data-testid="landing-sign-in">
              {t('invitationLanding.haveAccount')}
            </Button>
          </Stack>
        </Stack>
      </ContentCard>
    </>
  )
}

function Problem({
  title,
  body,
  testId,
  action,
}: {
  title: string
  body: string
  testId: string
  action?: { label: string; onClick: () => void; busy: boolean }
}) {
  return (
    <>
      <PageHeader title={title} />
      <ContentCard testId={testId}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography color="text.secondary">{body}</Typography>
          {action && (
            <Button variant="outlined" onClick={action.onClick} disabled={action.busy} data-testid="landing-problem-sign-in">
              {action.label}
            </Button>
          )}
        </Stack>
      </ContentCard>
    </>
  )
}

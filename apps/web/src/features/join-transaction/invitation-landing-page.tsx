import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { claimSecretSchema, type InvitationLanding } from '@pactum/contracts/guest-transactions'
import { readTransactionType } from '@pactum/contracts/transactions'
import { guestInvitationValidityDays } from '@pactum/domain/guest-invitation-timing'
import { useParams } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { errorCodeOf, errorMessage } from '../../lib/api/error-message.ts'
import { formatMoney } from '../../lib/money.ts'
import { useInvitationLanding } from './claim-api.ts'
import { LandingFrame, LandingProblem, type LandingSignIn, SignInChoices, useLandingSignIn } from './landing-frame.tsx'
import { PreviewLoading } from './preview-loading.tsx'

/**
 * What an invitation link shows to someone not signed in (issue 33 item 8),
 * instead of a bare sign-in page: who invited them to what, how Pactum
 * protects them, and the two ways in (sign-up with the invited address
 * filled in, or sign-in), both coming back to this link to claim it.
 */
export function InvitationLandingPage() {
  const { t } = useTranslation()
  const { claim_secret: secret = '', type } = useParams()
  const wellFormed = readTransactionType(type) !== null && claimSecretSchema.safeParse(secret).success
  const landing = useInvitationLanding(secret, wellFormed)
  const signIn = useLandingSignIn(landing.data?.invited_email)

  return (
    <LandingFrame failed={signIn.failed}>
      {!wellFormed ? (
        <LandingProblem title={t('guestClaim.problemTitle')} body={t('guestClaim.invalidLink')} testId="landing-invalid" />
      ) : landing.isPending ? (
        <PreviewLoading label={t('guestClaim.loading')} />
      ) : landing.isError ? (
        // Someone who accepted it already, or holds an account anyway, may still go on to sign in.
        <LandingProblem {...problemOf(t, landing.error)} testId="landing-problem" signIn={signIn} />
      ) : (
        <Offer landing={landing.data} signIn={signIn} />
      )}
    </LandingFrame>
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

function Offer({ landing, signIn }: { landing: InvitationLanding; signIn: LandingSignIn }) {
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
          <SignInChoices signIn={signIn} />
        </Stack>
      </ContentCard>
    </>
  )
}

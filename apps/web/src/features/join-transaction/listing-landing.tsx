import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { ContentCard } from '../../components/content-card.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { errorCodeOf } from '../../lib/api/error-message.ts'
import { type ListingPreviewWithPath, useListingPreview } from './join-api.ts'
import { LandingFrame, LandingProblem, type LandingSignIn, SignInChoices, useLandingSignIn } from './landing-frame.tsx'
import { ListingAmounts } from './listing-amounts.tsx'
import { PreviewLoading } from './preview-loading.tsx'

/**
 * A listing link opened by someone not signed in (issue 33): the offer as a
 * buyer will see it (the preview needs no sign-in: a listing is meant to be
 * shared), how Pactum protects them, and the two ways in, back to this link
 * to buy.
 */
export function ListingLanding({ id }: { id: string }) {
  const { t } = useTranslation()
  const preview = useListingPreview(id)
  const signIn = useLandingSignIn()

  return (
    <LandingFrame failed={signIn.failed}>
      {preview.isPending ? (
        <PreviewLoading label={t('listings.join.loading')} />
      ) : preview.isError ? (
        errorCodeOf(preview.error) === 'not_found' ? (
          <LandingProblem title={t('listings.join.notFoundTitle')} body={t('listings.join.notFoundBody')} testId="landing-problem" />
        ) : (
          // Busy or unreachable: signing in leads to the listing page, which can try again.
          <LandingProblem
            title={t('listingLanding.problemTitle')}
            body={t('listingLanding.problemBody')}
            testId="landing-problem"
            signIn={signIn}
          />
        )
      ) : !preview.data.available ? (
        <LandingProblem title={t('listings.join.closedTitle')} body={t('listings.join.closedBody')} testId="landing-problem" />
      ) : (
        <Offer preview={preview.data} signIn={signIn} />
      )}
    </LandingFrame>
  )
}

function Offer({ preview, signIn }: { preview: ListingPreviewWithPath; signIn: LandingSignIn }) {
  const { t } = useTranslation()
  const values = { name: preview.seller_first_name, item: preview.description }
  return (
    <>
      <PageHeader title={t(preview.seller_first_name ? 'listingLanding.titleNamed' : 'listingLanding.title', values)} />
      <ContentCard testId="landing-offer">
        <Stack spacing={2.5}>
          <ListingAmounts preview={preview} />
          <Typography data-testid="landing-protection">{t('invitationLanding.protectsBuyer')}</Typography>
          <Typography color="text.secondary">{t('listingLanding.next')}</Typography>
          <SignInChoices signIn={signIn} />
        </Stack>
      </ContentCard>
    </>
  )
}

import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { checkJoinCode } from '@pactum/domain/join-code-format'
import { Navigate } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { LabelledCode } from '../../components/labelled-code.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { readJoinInput } from './join-input.ts'
import { LandingFrame, LandingProblem, SignInChoices, useLandingSignIn } from './landing-frame.tsx'

/**
 * A join-code link opened by someone not signed in (issue 33). Unlike a
 * listing, a transaction is shown only to a signed-in person (the code is
 * its only secret, and the look-up is rate-limited per account), so this
 * page names the code and what Pactum does, not the sale, and offers the
 * two ways in, back to this link.
 */
export function JoinCodeLanding({ code: raw }: { code: string }) {
  const { t } = useTranslation()
  const signIn = useLandingSignIn()
  const check = checkJoinCode(raw)
  // A listing code in a join-code link is no mistake: its own landing shows the offer.
  const asListing = readJoinInput(raw)
  if (asListing.valid && asListing.kind === 'listing') return <Navigate to={asListing.path} replace />

  return (
    <LandingFrame failed={signIn.failed}>
      {!check.valid ? (
        <LandingProblem
          title={t('joinTransaction.byCode.invalidTitle')}
          body={t('joinTransaction.byCode.invalidBody')}
          testId="landing-problem"
          signIn={signIn}
        />
      ) : (
        <>
          <PageHeader title={t('codeLanding.title')} />
          <ContentCard testId="landing-offer">
            <Stack spacing={2.5}>
              <div>
                <LabelledCode
                  label={t('joinTransaction.codeLabel')}
                  code={check.code}
                  testId="landing-code"
                  sx={{ fontSize: 28, letterSpacing: '0.3em' }}
                />
              </div>
              <Typography data-testid="landing-protection">{t('codeLanding.protects')}</Typography>
              <Typography color="text.secondary">{t('codeLanding.next')}</Typography>
              <SignInChoices signIn={signIn} />
            </Stack>
          </ContentCard>
        </>
      )}
    </LandingFrame>
  )
}

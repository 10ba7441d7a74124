import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Container from '@mui/material/Container'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { type ReactNode, useState } from 'react'
import { useLocation } from 'react-router'
import { ContentCard } from '../../components/content-card.tsx'
import { PactumLogo } from '../../components/pactum-logo.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { SignInFailed } from '../../components/sign-in-failed.tsx'
import { useTranslation } from '../../i18n/react.tsx'
import { useSignInRedirect } from '../../lib/auth/use-sign-in-redirect.ts'

/**
 * What the landings for people who are not signed in share (issue 33 items
 * 8 and 9: an invitation, a listing link, a join-code link): the page
 * without the signed-in shell, and the two ways in, both coming back to the
 * link they opened.
 */

export interface LandingSignIn {
  /** Starts the sign-in; `register` opens the registration page instead. */
  start: (register: boolean) => void
  busy: boolean
}

/**
 * The hand-over to the provider, to come back to this page. `loginHint` is
 * an address for the provider to fill in (an invitation's).
 */
export function useLandingSignIn(loginHint?: string): LandingSignIn & { failed: boolean } {
  const location = useLocation()
  const [register, setRegister] = useState<boolean | null>(null)
  const failed = useSignInRedirect(register !== null, location.pathname + location.search, register ?? undefined, loginHint)
  return { start: setRegister, busy: register !== null, failed }
}

export function LandingFrame({ failed, children }: { failed: boolean; children: ReactNode }) {
  if (failed) return <SignInFailed />
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

/** "Create an account" and "I already have an account", side by side from the small breakpoint up. */
export function SignInChoices({ signIn }: { signIn: LandingSignIn }) {
  const { t } = useTranslation()
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
      <Button variant="contained" size="large" onClick={() => signIn.start(true)} disabled={signIn.busy} data-testid="landing-register">
        {t('invitationLanding.createAccount')}
      </Button>
      <Button variant="outlined" size="large" onClick={() => signIn.start(false)} disabled={signIn.busy} data-testid="landing-sign-in">
        {t('invitationLanding.haveAccount')}
      </Button>
    </Stack>
  )
}

/** What went wrong with the link, and (unless signing in would not help) a way to sign in anyway. */
export function LandingProblem({ title, body, testId, signIn }: { title: string; body: string; testId: string; signIn?: LandingSignIn }) {
  const { t } = useTranslation()
  return (
    <>
      <PageHeader title={title} />
      <ContentCard testId={testId}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography color="text.secondary">{body}</Typography>
          {signIn && (
            <Button variant="outlined" onClick={() => signIn.start(false)} disabled={signIn.busy} data-testid="landing-problem-sign-in">
              {t('invitationLanding.haveAccount')}
            </Button>
          )}
        </Stack>
      </ContentCard>
    </>
  )
}

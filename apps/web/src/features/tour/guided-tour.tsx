import { lazy, useState } from 'react'
import { Deferred } from '../../components/deferred.tsx'
import { usePayoutRequirements, usePersonalProfile } from '../../lib/api/profile-queries.ts'
import { useGuidedTourLauncher } from '../../lib/guided-tour-launcher.tsx'
import { useGuidedTourSeen, useMarkGuidedTourSeen } from './tour-api.ts'

// Shown once per person (and on request): the dialog and its video load only then.
const GuidedTourDialog = lazy(() => import('./guided-tour-dialog.tsx').then((module) => ({ default: module.GuidedTourDialog })))

/**
 * Shows the tour once to a new user, only when the onboarding dialogs are
 * done (country set, terms accepted: the profile and payout requirements
 * both answer), never on top of them; and again whenever a help page asks.
 */
export function GuidedTour() {
  const profile = usePersonalProfile()
  const payout = usePayoutRequirements()
  const seen = useGuidedTourSeen()
  const markSeen = useMarkGuidedTourSeen()
  const launcher = useGuidedTourLauncher()
  const [dismissed, setDismissed] = useState(false)

  const onboarded = profile.isSuccess && profile.data.tos_acceptance?.unix_timestamp !== 0 && payout.isSuccess
  const firstTime = onboarded && seen.data?.seen === false && !dismissed
  const open = firstTime || launcher.reopened

  const done = () => {
    if (firstTime) {
      setDismissed(true)
      markSeen.mutate()
    }
    launcher.close()
  }
  return (
    <Deferred when={open}>
      <GuidedTourDialog open={open} onDone={done} />
    </Deferred>
  )
}

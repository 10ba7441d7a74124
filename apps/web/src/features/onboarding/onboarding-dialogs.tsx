import { lazy, useEffect, useState } from 'react'
import { useLocation } from 'react-router'
import { Deferred } from '../../components/deferred.tsx'
import { hasErrorCode, usePayoutRequirements, usePersonalProfile } from '../../lib/api/profile-queries.ts'
import { captureJoinCode } from './join-code-memory.ts'

// Most visits need neither dialog (and the country picker is heavy): they load only when shown.
const CountryTermsDialog = lazy(() => import('./country-terms-dialog.tsx').then((module) => ({ default: module.CountryTermsDialog })))
const TermsUpdatedDialog = lazy(() => import('./terms-updated-dialog.tsx').then((module) => ({ default: module.TermsUpdatedDialog })))

/**
 * The shell's blocking dialogs (spec §2, §8). /me/personal answering 409
 * active_country_not_set opens the country-and-terms dialog; otherwise payout
 * requirements answering 409 tos_not_accepted (or a profile whose terms
 * timestamp is 0) opens the "terms have been updated" dialog.
 */
export function OnboardingDialogs() {
  const { pathname } = useLocation()
  const profile = usePersonalProfile()
  const payout = usePayoutRequirements()

  // The first signed-in location may be the join link itself (after the sign-in round trip):
  // only the location at mount counts as "startup".
  const [startPath] = useState(pathname)
  useEffect(() => captureJoinCode(startPath), [startPath])

  const needsCountry = hasErrorCode(profile.error, 'active_country_not_set')
  const termsOutdated =
    !needsCountry &&
    !profile.isPending &&
    (hasErrorCode(payout.error, 'tos_not_accepted') || profile.data?.tos_acceptance?.unix_timestamp === 0)

  return (
    <>
      <Deferred when={needsCountry}>{needsCountry && <CountryTermsDialog open />}</Deferred>
      <Deferred when={termsOutdated}>{termsOutdated && <TermsUpdatedDialog open />}</Deferred>
    </>
  )
}

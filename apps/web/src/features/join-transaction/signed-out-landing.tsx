import { useMatch } from 'react-router'
import { namedRoutes } from '../../lib/named-routes.ts'
import { InvitationLandingPage } from './invitation-landing-page.tsx'
import { JoinCodeLanding } from './join-code-landing.tsx'
import { ListingLanding } from './listing-landing.tsx'

/**
 * What a link someone was sent shows before they sign in (issue 33 items 8
 * and 9), by the link: a listing, a join code, or an invitation. Each
 * offers sign-up and sign-in, coming back to the link.
 */
export function SignedOutLanding() {
  const listing = useMatch(namedRoutes.joinListing)
  const code = useMatch(namedRoutes.joinTransactionByCode)
  if (listing) return <ListingLanding id={listing.params.id ?? ''} />
  if (code) return <JoinCodeLanding code={code.params.id ?? ''} />
  return <InvitationLandingPage />
}

import { usePayoutRequirements, usePersonalProfile } from '../../lib/api/profile-queries.ts'

/** The rule behind the warning icon, separate from the fetching so it can be tested on its own. */
export function profileNeedsAttention(
  profile: { details_submitted: boolean } | undefined,
  payout: { status: string; sells?: boolean } | undefined,
): boolean {
  // Payouts press only someone who sells: a buyer (or an admin) has nothing to be paid.
  return profile?.details_submitted === false || (payout?.status === 'due' && payout.sells !== false)
}

/**
 * Whether "My profile" needs the person's attention (spec §2): personal
 * details not submitted, or payout requirements due for someone who sells. False while loading and
 * when either call fails (a 409 before the country is set is not a warning:
 * the blocking country dialog deals with that).
 */
export function useProfileWarning(): boolean {
  const profile = usePersonalProfile()
  const payout = usePayoutRequirements()
  return profileNeedsAttention(profile.data, payout.data)
}

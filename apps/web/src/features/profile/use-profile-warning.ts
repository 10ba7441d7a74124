/**
 * Whether "My profile" needs the person's attention (details not submitted or
 * payout requirements due). Until the payout-requirements call is wired up
 * there is nothing to warn about.
 */
export function useProfileWarning(): boolean {
  return false
}

import { forgetClaimLink, forgetJoinCode, forgetListingId, savedClaimLink, savedJoinCode, savedListingId } from './join-code-memory.ts'

/** Query parameters of create/build links whose screens read them on load (spec §4). */
export const prefillParams = ['model', 'cur', 'user', 'price', 'deposit', 'desc'] as const

export type AfterOnboarding = { kind: 'reload' } | { kind: 'navigate'; to: string }

/**
 * Spec §4 country flow, after the country is set and the terms accepted: reload
 * when the URL carries prefill parameters, else go to the saved guest claim
 * link, listing link or join link, else /.
 */
export function afterOnboarding(search: string): AfterOnboarding {
  const params = new URLSearchParams(search)
  if (prefillParams.some((name) => params.has(name))) return { kind: 'reload' }
  const claimLink = savedClaimLink()
  if (claimLink) {
    forgetClaimLink()
    return { kind: 'navigate', to: claimLink }
  }
  const listing = savedListingId()
  if (listing) {
    forgetListingId()
    return { kind: 'navigate', to: `/join-transaction/listing/${encodeURIComponent(listing)}` }
  }
  const code = savedJoinCode()
  if (code) {
    forgetJoinCode()
    return { kind: 'navigate', to: `/join-transaction/${encodeURIComponent(code)}` }
  }
  return { kind: 'navigate', to: '/' }
}

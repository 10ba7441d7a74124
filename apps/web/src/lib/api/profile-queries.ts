import type { PayoutRequirements } from '@pactum/contracts/profile'
import { useQuery } from '@tanstack/react-query'
import type { ApiClient } from './api-client.ts'
import { useApiClient } from './api-client-context.tsx'
import { ApiError } from './api-error.ts'
import { fetchPersonalProfile, personalProfileKey } from './personal-profile.ts'

/*
 * The profile as read by several features: the profile pages (where it is
 * edited), the onboarding dialogs (which open on its 409s) and the sidebar's
 * warning. Editing stays with the profile feature.
 */

export const payoutRequirementsKey = ['me', 'personal', 'payout_requirements'] as const

/** A 4xx answer (409 "set your country first", 404…) will not change on retry; network and 5xx may. */
export function retryUnlessClientError(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false
  return failureCount < 1
}

/**
 * Spec §8: a 409 from GET /me/personal is asked once more, 2 s later, before
 * the country prompt opens (the answer may still be settling, just after
 * sign-up or after the country was set elsewhere). Other failures are retried
 * as every profile call is (retryUnlessClientError), with the default delay.
 */
export const profileConflictRetryDelayMs = 2000

function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409
}

export function retryPersonalProfile(failureCount: number, error: unknown): boolean {
  return isConflict(error) ? failureCount < 1 : retryUnlessClientError(failureCount, error)
}

/** React Query's own delay (1 s, 2 s, 4 s… up to 30 s) for everything but the 409. */
export function personalProfileRetryDelay(failureCount: number, error: unknown): number {
  return isConflict(error) ? profileConflictRetryDelayMs : Math.min(1000 * 2 ** failureCount, 30_000)
}

/**
 * How long an answer read for the shell counts as fresh for a page that
 * mounts just after it (the profile pages load their chunk and the whole
 * dictionary first): long enough that the page does not ask again, short
 * enough that opening the page later reads what verification or the payment
 * provider changed meanwhile. The profile's own edits invalidate at once.
 */
export const profileFreshForMs = 5_000

export function fetchPayoutRequirements(api: ApiClient) {
  return api.request<PayoutRequirements>('/me/personal/payout_requirements')
}

export function usePersonalProfile() {
  const api = useApiClient()
  return useQuery({
    queryKey: personalProfileKey,
    queryFn: () => fetchPersonalProfile(api),
    retry: retryPersonalProfile,
    retryDelay: personalProfileRetryDelay,
    staleTime: profileFreshForMs,
  })
}

/**
 * Asked once the profile has answered: before the country is set the profile
 * answers 409 (spec §8) and so would this, for nothing but a 4xx in the
 * browser's console (issue 33 item 13).
 */
export function usePayoutRequirements() {
  const api = useApiClient()
  const profile = usePersonalProfile()
  return useQuery({
    queryKey: payoutRequirementsKey,
    queryFn: () => fetchPayoutRequirements(api),
    enabled: profile.isSuccess,
    retry: retryUnlessClientError,
    staleTime: profileFreshForMs,
  })
}

/** True when the error is an ApiError carrying `code`. */
export function hasErrorCode(error: unknown, code: string): boolean {
  return error instanceof ApiError && error.code === code
}

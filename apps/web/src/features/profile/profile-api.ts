import type { UpdateProfileBody } from '@pactum/contracts/profile'
import type { BusinessUrlBody, OnboardingLink } from '@pactum/contracts/verification'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ApiClient } from '../../lib/api/api-client.ts'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { type PersonalProfile, personalProfileKey } from '../../lib/api/personal-profile.ts'
import { payoutRequirementsKey } from '../../lib/api/profile-queries.ts'

export function updatePersonalProfile(api: ApiClient, body: UpdateProfileBody) {
  return api.request<PersonalProfile>('/me/personal', { method: 'PUT', body })
}

/** PUT /me/personal; on success the profile and the payout requirements are fetched again (the warning icon follows). */
export function useUpdatePersonalProfile() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateProfileBody) => updatePersonalProfile(api, body),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: personalProfileKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: payoutRequirementsKey, exact: true }),
      ])
    },
  })
}

export function saveBusinessUrl(api: ApiClient, url: string) {
  return api.request<{ business_url: string }>('/me/personal/business_url', { method: 'POST', body: { url } satisfies BusinessUrlBody })
}

/** POST /me/personal/business_url; the answer is the saved address, which replaces the one in the cached profile. */
export function useSaveBusinessUrl() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (url: string) => saveBusinessUrl(api, url),
    onSuccess: ({ business_url }) => {
      queryClient.setQueryData<PersonalProfile>(personalProfileKey, (profile) => (profile ? { ...profile, business_url } : profile))
    },
  })
}

/**
 * POST /me/account_onboarding_link, then off to the payment provider's own
 * onboarding page for what only it collects; it sends the seller back to
 * the personal details.
 */
export function useOpenProviderOnboarding() {
  const api = useApiClient()
  return useMutation({
    mutationFn: (returnPath: string) =>
      api.request<OnboardingLink>('/me/account_onboarding_link', { method: 'POST', body: { return_url: returnPath } }),
    onSuccess: (link) => window.location.assign(link.url),
  })
}

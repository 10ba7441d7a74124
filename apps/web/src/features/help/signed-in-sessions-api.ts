import type { SessionsSignedOut, SignedInSession } from '@pactum/contracts/me'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

export const signedInSessionsKey = ['me', 'sessions'] as const

/** GET /me/sessions: the browsers signed in to the account (embedded sign-in only). */
export function useSignedInSessions() {
  const api = useApiClient()
  return useQuery({
    queryKey: signedInSessionsKey,
    queryFn: ({ signal }) => api.request<SignedInSession[]>('/me/sessions', { signal }),
  })
}

/** POST /me/sessions/sign_out_others: every other browser signed out; the list is read again. */
export function useSignOutOtherSessions() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.request<SessionsSignedOut>('/me/sessions/sign_out_others', { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: signedInSessionsKey }),
  })
}

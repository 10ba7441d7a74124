import type { ConfirmTotpBody, TotpPasswordBody, TotpSetup, TotpStatusView } from '@pactum/contracts/totp'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useApiClient } from './api-client-context.tsx'
import { retryUnlessClientError } from './profile-queries.ts'

const totpKey = ['me', 'totp'] as const

/** GET /me/totp: whether the account has an authenticator app (embedded sign-in only). */
export function useTotpStatus(enabled: boolean) {
  const api = useApiClient()
  return useQuery({ queryKey: totpKey, queryFn: () => api.request<TotpStatusView>('/me/totp'), enabled, retry: retryUnlessClientError })
}

/** The password buys a new secret for the app; nothing changes until a code confirms it. */
export function useBeginTotpSetup() {
  const api = useApiClient()
  return useMutation({ mutationFn: (body: TotpPasswordBody) => api.request<TotpSetup>('/me/totp/setup', { method: 'POST', body }) })
}

export function useConfirmTotp() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ConfirmTotpBody) => api.request<TotpStatusView>('/me/totp', { method: 'POST', body }),
    onSuccess: (status) => queryClient.setQueryData(totpKey, status),
  })
}

export function useRemoveTotp() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: TotpPasswordBody) => api.request<null>('/me/totp/remove', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: totpKey }),
  })
}

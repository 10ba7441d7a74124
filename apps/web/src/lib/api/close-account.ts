import type { CloseAccountBody } from '@pactum/contracts/me'
import { useMutation } from '@tanstack/react-query'
import { useApiClient } from './api-client-context.tsx'

/** POST /me/close_account: refused (409) while money is held or owed; 204 once closed. */
export function useCloseAccount() {
  const api = useApiClient()
  return useMutation({
    mutationFn: (body: CloseAccountBody) => api.request<null>('/me/close_account', { method: 'POST', body }),
  })
}

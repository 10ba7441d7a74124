import type { ChangePassword, SessionsSignedOut } from '@pactum/contracts/me'
import { useMutation } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

/** POST /me/password: a new password (embedded sign-in only); every other session is signed out. */
export function useChangePassword() {
  const api = useApiClient()
  return useMutation({
    mutationFn: (body: ChangePassword) => api.request<SessionsSignedOut>('/me/password', { method: 'POST', body }),
  })
}

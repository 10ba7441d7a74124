import type { Me } from '@pactum/contracts/me'
import { useQuery } from '@tanstack/react-query'
import { useApiClient } from './api-client-context.tsx'
import { retryUnlessClientError } from './profile-queries.ts'

export const meKey = ['me'] as const

/**
 * GET /me: the server's view of the signed-in user, roles included. The
 * admin role can come from ADMIN_EMAILS, which only the server knows, so the
 * token's claims alone cannot tell the web app who is an admin.
 */
export function useMe() {
  const api = useApiClient()
  return useQuery({ queryKey: meKey, queryFn: () => api.request<Me>('/me'), retry: retryUnlessClientError, staleTime: 5 * 60_000 })
}

/** true or false once /me has answered; undefined while it is on its way (or failed). */
export function useIsAdmin(): boolean | undefined {
  const { data } = useMe()
  return data ? data.roles.includes('admin') : undefined
}

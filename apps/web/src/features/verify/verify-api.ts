import type { PublicVerification } from '@pactum/contracts/verify'
import { useQuery } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

/**
 * `GET /verify/{code}` (decision 114): the public facts of a sale's escrow,
 * for anyone holding its link. Not retried: an unknown code stays unknown,
 * and the look-ups are rate-limited per address.
 */
export function useVerification(code: string, enabled: boolean) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['verify', code],
    enabled,
    queryFn: ({ signal }) => api.request<PublicVerification>(`/verify/${encodeURIComponent(code)}`, { signal }),
    retry: false,
  })
}

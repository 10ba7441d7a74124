import type { PartnerClient } from '@pactum/contracts/partner-clients'
import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useApiClient } from '../api/api-client-context.tsx'
import { ApiError } from '../api/api-error.ts'
import { forgetClientId, savedClientId } from './client-id-memory.ts'

/**
 * The partner client kept for this tab (GET /clients/{id}), or null: none
 * kept, still loading, or unknown (then forgotten, so the default look
 * stays and new transactions do not record it).
 */
export function usePartnerClient(clientId: string | null = savedClientId()): PartnerClient | null {
  const api = useApiClient()
  const query = useQuery({
    queryKey: ['partner-client', clientId],
    queryFn: () => api.request<PartnerClient>(`/clients/${encodeURIComponent(clientId ?? '')}`),
    enabled: clientId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  })
  const unknown = query.error instanceof ApiError && query.error.status === 404
  useEffect(() => {
    if (unknown) forgetClientId()
  }, [unknown])
  return query.data ?? null
}

import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { ClaimPreview } from '@pactum/contracts/guest-transactions'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

export type ClaimRole = 'buyer' | 'seller'
export type ClaimKind = 'online' | 'f2f'

/** `GET /transactions_by_claim_secret/{secret}`: what the invitation offers, before taking it. */
export function useClaimPreview(secret: string, enabled: boolean) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['claim-preview', secret],
    enabled,
    queryFn: ({ signal }) => api.request<ClaimPreview>(`/transactions_by_claim_secret/${encodeURIComponent(secret)}`, { signal }),
    retry: false,
  })
}

/** `POST [/p2p]/transactions_by_claim_secret/{secret}/claim_as_{role}`: the link's kind and role, as the e-mail gave them. */
export function useClaimTransaction() {
  const api = useApiClient()
  return useMutation({
    mutationFn: ({ secret, role, kind }: { secret: string; role: ClaimRole; kind: ClaimKind }) =>
      api.request<AnyTransaction>(
        `${kind === 'f2f' ? '/p2p' : ''}/transactions_by_claim_secret/${encodeURIComponent(secret)}/claim_as_${role}`,
        {
          method: 'POST',
          body: {},
        },
      ),
  })
}

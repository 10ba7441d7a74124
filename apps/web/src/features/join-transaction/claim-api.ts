import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import type { ClaimPreview, InvitationLanding } from '@pactum/contracts/guest-transactions'
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

/**
 * `GET /guest_invitations/{secret}`: who invited the link's holder to what,
 * asked before anyone signs in (issue 33 item 8). Not polled again while
 * unreachable: the page offers sign-in either way.
 */
export function useInvitationLanding(secret: string, enabled: boolean) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['invitation-landing', secret],
    enabled,
    queryFn: ({ signal }) => api.request<InvitationLanding>(`/guest_invitations/${encodeURIComponent(secret)}`, { signal }),
    retry: false,
  })
}

import type {
  DocumentSide,
  DocumentVerificationStatus,
  IdentityDocumentKind,
  VerificationMethodResponse,
  VerificationSession,
  VerificationStatus,
} from '@pactum/contracts/verification'
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ApiClient } from '../../lib/api/api-client.ts'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { fetchVerificationStatus, verificationStatusKey } from '../../lib/api/verification-status.ts'
import { routeTo } from '../../lib/named-routes.ts'
import { payoutRequirementsKey, retryUnlessClientError } from '../../lib/api/profile-queries.ts'

// Type-only imports from the contract keep zod out of this chunk; the
// identity-document-section test checks these copies against the contract.
export const identityDocuments = ['identity_document', 'additional_identity_document'] as const satisfies readonly IdentityDocumentKind[]
export const identitySides = ['front', 'back'] as const satisfies readonly DocumentSide[]

/** The payment provider checks files and sessions asynchronously; this is how often we look again meanwhile. */
export const identityPollMs = 2000

export const verificationMethodKey = ['me', 'verification_method'] as const
export const documentStatusKey = (document: IdentityDocumentKind) => ['me', 'identity_documents', document] as const

function refreshPayoutRequirements(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: payoutRequirementsKey, exact: true })
}

/** GET /me/verification_method: which of the two flows this server uses. */
export function useVerificationMethod() {
  const api = useApiClient()
  return useQuery({
    queryKey: verificationMethodKey,
    queryFn: ({ signal }) => api.request<VerificationMethodResponse>('/me/verification_method', { signal }),
    // Chosen by the server's configuration: it does not change while the page is open.
    staleTime: Number.POSITIVE_INFINITY,
    retry: retryUnlessClientError,
  })
}

export function hasPendingSide(status: DocumentVerificationStatus): boolean {
  return identitySides.some((side) => status[side].status === 'pending')
}

/** A side became verified between two readings: the payout requirements (and the profile warning) may have changed. */
export function newlyVerified(before: DocumentVerificationStatus | undefined, after: DocumentVerificationStatus): boolean {
  return identitySides.some((side) => after[side].status === 'verified' && before?.[side].status !== 'verified')
}

export function fetchDocumentStatus(api: ApiClient, document: IdentityDocumentKind, signal?: AbortSignal) {
  return api.request<DocumentVerificationStatus>(`/me/personal/${document}/verification_status`, { signal })
}

/** GET /me/personal/{document}/verification_status, read again every 2 s while a side is being checked. */
export function useDocumentStatus(document: IdentityDocumentKind) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useQuery({
    queryKey: documentStatusKey(document),
    queryFn: async ({ signal }) => {
      const before = queryClient.getQueryData<DocumentVerificationStatus>(documentStatusKey(document))
      const after = await fetchDocumentStatus(api, document, signal)
      if (before && newlyVerified(before, after)) void refreshPayoutRequirements(queryClient)
      return after
    },
    refetchInterval: (query) => (query.state.data && hasPendingSide(query.state.data) ? identityPollMs : false),
    retry: retryUnlessClientError,
  })
}

export function uploadDocument(api: ApiClient, document: IdentityDocumentKind, side: DocumentSide, file: File) {
  const body = new FormData()
  body.set('side', side)
  body.set('file', file)
  return api.request<DocumentVerificationStatus>(`/me/personal/${document}`, { method: 'POST', body })
}

/**
 * POST /me/personal/{document} (multipart: `side`, `file`). The answer is the
 * document's new status, so it replaces the cached one; the payout
 * requirements are read again so the My profile warning follows.
 */
export function useUploadDocument(document: IdentityDocumentKind) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ side, file }: { side: DocumentSide; file: File }) => uploadDocument(api, document, side, file),
    onSuccess: (status) => {
      queryClient.setQueryData(documentStatusKey(document), status)
      void refreshPayoutRequirements(queryClient)
    },
  })
}

/** GET /me/verification_status, read again every 2 s while the provider processes a session. */
export function useVerificationStatus() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useQuery({
    queryKey: verificationStatusKey,
    queryFn: async ({ signal }) => {
      const before = queryClient.getQueryData<VerificationStatus>(verificationStatusKey)
      const after = await fetchVerificationStatus(api, signal)
      if (before && !before.verified && after.verified) void refreshPayoutRequirements(queryClient)
      return after
    },
    refetchInterval: (query) => (query.state.data?.verification_session_status === 'processing' ? identityPollMs : false),
    retry: retryUnlessClientError,
  })
}

/**
 * GET /me/verification_session (created if there is none), then off to the
 * provider's hosted page, which sends the person back to the personal details.
 */
export function useStartVerificationSession() {
  const api = useApiClient()
  return useMutation({
    mutationFn: () => api.request<VerificationSession>('/me/verification_session', { query: { return_url: routeTo('personalDetails') } }),
    onSuccess: (session) => window.location.assign(session.url),
  })
}

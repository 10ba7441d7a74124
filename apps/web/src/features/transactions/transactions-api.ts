import type { AnyTransaction, TransactionSummary } from '@pactum/contracts/f2f-transactions'
import type { PartyDetails, Role, TransactionFilter } from '@pactum/contracts/transactions'
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { fetchVerificationStatus, verificationStatusKey } from '../../lib/api/verification-status.ts'
import { transactionPageSize } from '../../lib/constants.ts'
import { isTerminal } from '@pactum/domain/transactions/statuses'

export type ListFilter = TransactionFilter | 'all'

/**
 * The query of `GET /me/transactions` for one page: keyset pagination by the
 * last id seen, and the rows as summaries (what a row shows, a fifth of the
 * full transactions' bytes).
 */
export function listQuery(filter: ListFilter, search: string, afterId?: string): NonNullable<ApiRequest['query']> {
  const text = search.trim()
  return {
    limit: transactionPageSize,
    after_id: afterId,
    filter: filter === 'all' ? undefined : filter,
    search: text === '' ? undefined : text.slice(0, 100),
    view: 'summary',
  }
}

export function useTransactionList(filter: ListFilter, search: string) {
  const api = useApiClient()
  return useInfiniteQuery({
    queryKey: ['transactions', filter, search.trim()],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.request<TransactionSummary[]>('/me/transactions', { query: listQuery(filter, search, pageParam), signal }),
    // The unfiltered first page may have arrived before the app rendered (app/first-requests.ts): the page
    // renders its rows at once. It is stale at once, so the mount still asks, and is handed the same answer.
    initialData: () => {
      const firstPage = api.arrived<TransactionSummary[]>('/me/transactions', { query: listQuery(filter, search) })
      return firstPage ? { pages: [firstPage], pageParams: [undefined] } : undefined
    },
    // A short page is the last one.
    getNextPageParam: (lastPage) => (lastPage.length < transactionPageSize ? undefined : lastPage.at(-1)?.id),
  })
}

export const transactionKey = (id: string) => ['transaction', id] as const

/** How often to re-read a transaction while its next move is someone else's (the other party, the provider, a carrier, a timer). */
export const pendingPollMs = 5000
/** While the viewer has something to do: slower, but a deadline passing still shows. */
export const ownTurnPollMs = 30_000

/** The server decides what happens next; the page only keeps asking until the transaction is over. */
export function pollInterval(transaction: Pick<AnyTransaction, 'type' | 'status' | 'available_actions'>): number | false {
  if (isTerminal({ kind: transaction.type, status: transaction.status })) return false
  return transaction.available_actions.length > 0 ? ownTurnPollMs : pendingPollMs
}

export function useTransaction(id: string) {
  const api = useApiClient()
  return useQuery({
    queryKey: transactionKey(id),
    queryFn: ({ signal }) => api.request<AnyTransaction>(`/transactions/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query) => (query.state.data ? pollInterval(query.state.data) : false),
    retry: false,
  })
}

/** Where a path of this kind lives: face-to-face calls are under /p2p (spec §7). */
function kindPath(kind: AnyTransaction['type'], id: string): string {
  return `${kind === 'f2f' ? '/p2p' : ''}/transactions/${encodeURIComponent(id)}`
}

/**
 * `GET …/seller_details` or `…/buyer_details`: the other party's name and
 * e-mail. Not asked while that party has not joined (the answer would be
 * nulls); the party's id in the key asks again once someone has.
 */
export function usePartyDetails(transaction: Pick<AnyTransaction, 'id' | 'type' | 'buyer_id' | 'seller_id'>, party: Role) {
  const api = useApiClient()
  const partyId = party === 'buyer' ? transaction.buyer_id : transaction.seller_id
  return useQuery({
    queryKey: ['party-details', transaction.id, party, partyId],
    enabled: partyId !== null,
    queryFn: ({ signal }) => api.request<PartyDetails>(`${kindPath(transaction.type, transaction.id)}/${party}_details`, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
}

export interface Carrier {
  slug: string
  name: string
}

export function useCarriers(enabled: boolean) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['supported-carriers'],
    enabled,
    queryFn: ({ signal }) => api.request<Carrier[]>('/supported_carriers', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  })
}

/** GET /me/verification_status: whether the person looking at a high-value sale has verified their identity. */
export function useOwnVerificationStatus(enabled: boolean) {
  const api = useApiClient()
  return useQuery({
    queryKey: verificationStatusKey,
    enabled,
    queryFn: ({ signal }) => fetchVerificationStatus(api, signal),
    retry: false,
  })
}

/**
 * `POST /transactions/{id}/{action}` answering with the updated transaction, which replaces the cached one.
 * `idempotencyKey` (one per confirmation dialog) makes a double submit or a retried request harmless.
 */
export function useTransactionAction(id: string, kind: AnyTransaction['type'] = 'online') {
  const api = useApiClient()
  const queryClient = useQueryClient()
  const base = kind === 'f2f' ? '/p2p/transactions' : '/transactions'
  return useMutation({
    mutationFn: ({ action, body, idempotencyKey }: { action: string; body?: unknown; idempotencyKey?: string }) =>
      api.request<AnyTransaction>(`${base}/${encodeURIComponent(id)}/${action}`, {
        method: 'POST',
        body: body ?? {},
        headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined,
      }),
    onSuccess: (transaction) => {
      if (transaction && typeof transaction === 'object' && 'id' in transaction) queryClient.setQueryData(transactionKey(id), transaction)
      void queryClient.invalidateQueries({ queryKey: transactionKey(id) })
      void queryClient.invalidateQueries({ queryKey: ['transactions'] })
      // A complaint opens a case, an offer or answer changes it.
      void queryClient.invalidateQueries({ queryKey: ['case', id] })
    },
  })
}

/**
 * The creator's `PATCH /transactions/{id}` (`/p2p/transactions/{id}`) before
 * anyone joined; the answer replaces the cached transaction.
 */
export function useUpdateTransaction(transaction: Pick<AnyTransaction, 'id' | 'type'>) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api.request<AnyTransaction>(kindPath(transaction.type, transaction.id), { method: 'PATCH', body }),
    onSuccess: (updated) => {
      queryClient.setQueryData(transactionKey(transaction.id), updated)
      void queryClient.invalidateQueries({ queryKey: ['transactions'] })
    },
  })
}

import type { Transaction, TransactionFilter } from '@pactum/contracts/transactions'
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ApiRequest } from '../../lib/api/api-client.ts'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { fetchVerificationStatus, verificationStatusKey } from '../../lib/api/verification-status.ts'
import { transactionPageSize } from '../../lib/constants.ts'
import { awaitsAsyncChange } from './available-actions.ts'

export type ListFilter = TransactionFilter | 'all'

/** The query of `GET /me/transactions` for one page: keyset pagination by the last id seen. */
export function listQuery(filter: ListFilter, search: string, afterId?: string): NonNullable<ApiRequest['query']> {
  const text = search.trim()
  return {
    limit: transactionPageSize,
    after_id: afterId,
    filter: filter === 'all' ? undefined : filter,
    search: text === '' ? undefined : text.slice(0, 100),
  }
}

export function useTransactionList(filter: ListFilter, search: string) {
  const api = useApiClient()
  return useInfiniteQuery({
    queryKey: ['transactions', filter, search.trim()],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.request<Transaction[]>('/me/transactions', { query: listQuery(filter, search, pageParam), signal }),
    // A short page is the last one.
    getNextPageParam: (lastPage) => (lastPage.length < transactionPageSize ? undefined : lastPage.at(-1)?.id),
  })
}

export const transactionKey = (id: string) => ['transaction', id] as const

/** How often to re-read a transaction while something is pending elsewhere (payment, carrier, timers). */
export const pendingPollMs = 5000

export function useTransaction(id: string) {
  const api = useApiClient()
  return useQuery({
    queryKey: transactionKey(id),
    queryFn: ({ signal }) => api.request<Transaction>(`/transactions/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query) => (query.state.data && awaitsAsyncChange(query.state.data) ? pendingPollMs : false),
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
export function useTransactionAction(id: string) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ action, body, idempotencyKey }: { action: string; body?: unknown; idempotencyKey?: string }) =>
      api.request<Transaction>(`/transactions/${encodeURIComponent(id)}/${action}`, {
        method: 'POST',
        body: body ?? {},
        headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined,
      }),
    onSuccess: (transaction) => {
      if (transaction && typeof transaction === 'object' && 'id' in transaction)
        queryClient.setQueryData(transactionKey(id), transaction)
      void queryClient.invalidateQueries({ queryKey: transactionKey(id) })
      void queryClient.invalidateQueries({ queryKey: ['transactions'] })
    },
  })
}

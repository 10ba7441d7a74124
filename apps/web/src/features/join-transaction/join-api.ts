import type { JoinPreview, Transaction } from '@pactum/contracts/transactions'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

/** `GET /transactions?join_code=CODE`: what the counterparty sees before joining. */
export function useJoinPreview(code: string, enabled: boolean) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['join-preview', code],
    enabled,
    queryFn: ({ signal }) => api.request<JoinPreview>('/transactions', { query: { join_code: code }, signal }),
    retry: false,
  })
}

/** `PUT /transactions?join_code=CODE`: joins as the role the creator left open. */
export function useJoinTransaction() {
  const api = useApiClient()
  return useMutation({
    // The terms the joiner saw go along: if the creator changed them meanwhile, the server refuses.
    mutationFn: ({ code, preview }: { code: string; preview: JoinPreview }) =>
      api.request<Transaction>('/transactions', {
        method: 'PUT',
        query: { join_code: code, price: String(preview.price), charge: String(preview.charge), currency: preview.currency },
      }),
  })
}

/** `POST /transactions/{id}/reject {join_code}`: "not for me". The code proves the caller was offered it. */
export function useRejectTransaction() {
  const api = useApiClient()
  return useMutation({
    mutationFn: ({ id, code }: { id: string; code: string }) =>
      api.request<Transaction>(`/transactions/${encodeURIComponent(id)}/reject`, {
        method: 'POST',
        body: { join_code: code },
      }),
  })
}

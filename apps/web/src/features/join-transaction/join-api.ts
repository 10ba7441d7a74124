import type { AnyTransaction, F2fJoinPreview } from '@pactum/contracts/f2f-transactions'
import type { ListingPreview } from '@pactum/contracts/listings'
import type { JoinPreview } from '@pactum/contracts/transactions'
import { useMutation, useQuery } from '@tanstack/react-query'
import { ApiError } from '../../lib/api/api-error.ts'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

export type AnyJoinPreview = JoinPreview | F2fJoinPreview

/**
 * What the counterparty sees before joining. A code belongs to one kind of
 * sale; the online look-up (`GET /transactions?join_code=`) answers first,
 * and a code it does not know is asked of the face-to-face one
 * (`GET /p2p/transactions_by_join_code/{code}`).
 */
export function useJoinPreview(code: string, enabled: boolean) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['join-preview', code],
    enabled,
    queryFn: async ({ signal }): Promise<AnyJoinPreview> => {
      try {
        return await api.request<JoinPreview>('/transactions', { query: { join_code: code }, signal })
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'join_code_not_found') throw error
        return api.request<F2fJoinPreview>(`/p2p/transactions_by_join_code/${encodeURIComponent(code)}`, { signal })
      }
    },
    retry: false,
  })
}

/** Joins as the role the creator left open, by the kind's own call. */
export function useJoinTransaction() {
  const api = useApiClient()
  return useMutation({
    mutationFn: ({ code, preview }: { code: string; preview: AnyJoinPreview }) =>
      preview.type === 'f2f'
        ? api.request<AnyTransaction>(`/p2p/transactions_by_join_code/${encodeURIComponent(code)}/join`, { method: 'POST', body: {} })
        : // The terms the joiner saw go along: if the creator changed them meanwhile, the server refuses.
          api.request<AnyTransaction>('/transactions', {
            method: 'PUT',
            query: { join_code: code, price: String(preview.price), charge: String(preview.charge), currency: preview.currency },
          }),
  })
}

/** `POST /transactions/{id}/reject {join_code}` (or `/p2p/…`): "not for me". The code proves the caller was offered it. */
export function useRejectTransaction() {
  const api = useApiClient()
  return useMutation({
    mutationFn: ({ preview, code }: { preview: AnyJoinPreview; code: string }) =>
      api.request<AnyTransaction>(`${preview.type === 'f2f' ? '/p2p' : ''}/transactions/${encodeURIComponent(preview.id)}/reject`, {
        method: 'POST',
        body: { join_code: code },
      }),
  })
}

/** The path segments of the two listing types, tried in this order: a link does not say which type it is. */
const listingSegments = ['single_use_listings', 'multi_use_listings'] as const

export type ListingPreviewWithPath = ListingPreview & { segment: (typeof listingSegments)[number] }

/** What a buyer sees before buying from a listing (`GET /{listingType}/{id}`): the first type that knows the id. */
export function useListingPreview(id: string) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['listing-preview', id],
    queryFn: async ({ signal }): Promise<ListingPreviewWithPath> => {
      for (const segment of listingSegments) {
        try {
          const preview = await api.request<ListingPreview>(`/${segment}/${encodeURIComponent(id)}`, { signal })
          return { ...preview, segment }
        } catch (error) {
          if (!(error instanceof ApiError) || error.code !== 'not_found' || segment === listingSegments.at(-1)) throw error
        }
      }
      throw new Error('unreachable')
    },
    retry: false,
  })
}

/** Buys from the listing at the fee the preview showed; the server refuses (`incorrect_charge`) if it changed. */
export function useBuyFromListing() {
  const api = useApiClient()
  return useMutation({
    mutationFn: (preview: ListingPreviewWithPath) =>
      api.request<AnyTransaction>(`/${preview.segment}/${encodeURIComponent(preview.id)}/create_transaction`, {
        method: 'POST',
        body: { charge: preview.charge, charge_calculator_version: preview.charge_calculator_version },
      }),
  })
}

import type { AnyTransaction, F2fJoinPreview } from '@pactum/contracts/f2f-transactions'
import type { ListingPreview } from '@pactum/contracts/listings'
import type { JoinPreview } from '@pactum/contracts/transactions'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

export type AnyJoinPreview = JoinPreview | F2fJoinPreview

/**
 * What the counterparty sees before joining, of either kind: one look-up
 * (`GET /transactions?join_code=` answers a face-to-face code too, `type`
 * saying which), where asking the face-to-face one after the online one's
 * 404 put a 4xx in every face-to-face joiner's console (issue 33 item 13).
 */
export function useJoinPreview(code: string, enabled: boolean) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['join-preview', code],
    enabled,
    queryFn: ({ signal }): Promise<AnyJoinPreview> => api.request<AnyJoinPreview>('/transactions', { query: { join_code: code }, signal }),
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

/** The spec's path segment of each listing type (a copy of the contracts' `listingPathSegments`: importing it would bring zod into this chunk). */
const listingPathSegments = { single_use: 'single_use_listings', multi_use: 'multi_use_listings' } as const

export type ListingPreviewWithPath = ListingPreview & { segment: (typeof listingPathSegments)[keyof typeof listingPathSegments] }

/**
 * What a buyer sees before buying from a listing: one look-up of either type
 * (`GET /listings/{id}`), whose `listing_type` names the spec's path to buy
 * by (`/{listingType}/{id}/create_transaction`). A link does not say the
 * type, and trying one type's path and then the other's put a 404 in every
 * multi-use buyer's console (issue 33 item 13).
 */
export function useListingPreview(id: string) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['listing-preview', id],
    queryFn: async ({ signal }): Promise<ListingPreviewWithPath> => {
      const preview = await api.request<ListingPreview>(`/listings/${encodeURIComponent(id)}`, { signal })
      return { ...preview, segment: listingPathSegments[preview.listing_type] }
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

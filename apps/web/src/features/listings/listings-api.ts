import type { CreateListingBody, Listing, OwnListing, UpdateListingBody } from '@pactum/contracts/listings'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

const listingsKey = ['listings'] as const

/** `GET /me/listings`: the seller's own, newest first. */
export function useMyListings() {
  const api = useApiClient()
  return useQuery({ queryKey: listingsKey, queryFn: ({ signal }) => api.request<OwnListing[]>('/me/listings', { signal }) })
}

/** Create (`POST /me/listings`), edit (`PATCH /me/listings/{id}`) or close (`POST /me/listings/{id}/close`); the list is re-read after. */
export function useSaveListing() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { id: null; body: CreateListingBody } | { id: string; body: UpdateListingBody }) =>
      input.id === null
        ? api.request<Listing>('/me/listings', { method: 'POST', body: input.body })
        : api.request<Listing>(`/me/listings/${encodeURIComponent(input.id)}`, { method: 'PATCH', body: input.body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: listingsKey }),
  })
}

export function useCloseListing() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.request<Listing>(`/me/listings/${encodeURIComponent(id)}/close`, { method: 'POST', body: {} }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: listingsKey }),
  })
}

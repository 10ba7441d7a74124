import type { GuidedTour } from '@pactum/contracts/guided-tour'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

const guidedTourKey = ['me', 'guided_tour'] as const

/** GET /me/guided_tour: whether this person has finished or skipped the tour (kept server-side, so it follows them). */
export function useGuidedTourSeen() {
  const api = useApiClient()
  return useQuery({ queryKey: guidedTourKey, queryFn: () => api.request<GuidedTour>('/me/guided_tour'), retry: false })
}

/** POST /me/guided_tour/seen, after finish or skip; the answer is known at once so the tour does not come back. */
export function useMarkGuidedTourSeen() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.request<GuidedTour>('/me/guided_tour/seen', { method: 'POST' }),
    onMutate: () => queryClient.setQueryData<GuidedTour>(guidedTourKey, { seen: true }),
  })
}

import type { Balance, Payout, PayoutStatus } from '@pactum/contracts/payouts'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'
import { retryUnlessClientError } from '../../lib/api/profile-queries.ts'

// Type-only imports from the contract keep zod out of this chunk.

/** A payout in one of these states is still moving; the bank will change it without the person doing anything. */
const inFlightStatuses: readonly PayoutStatus[] = ['pending', 'in_transit']

/** How often the balance and the payouts are read again while a payout is on its way. */
export const payoutPollMs = 5000

export const balanceKey = ['app_api', 'balance'] as const
export const payoutsKey = ['app_api', 'payouts'] as const

export function hasPayoutInFlight(payouts: readonly Payout[]): boolean {
  return payouts.some((payout) => inFlightStatuses.includes(payout.status))
}

/** A payout appeared or changed state between two readings: the balance has moved too. */
export function payoutsChanged(before: readonly Payout[], after: readonly Payout[]): boolean {
  if (before.length !== after.length) return true
  const statusBefore = new Map(before.map((payout) => [payout.id, payout.status]))
  return after.some((payout) => statusBefore.get(payout.id) !== payout.status)
}

/** GET /app_api/payouts (at the site root, not under /api/v1), newest first. */
export function usePayouts() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useQuery({
    queryKey: payoutsKey,
    queryFn: async ({ signal }) => {
      const before = queryClient.getQueryData<Payout[]>(payoutsKey)
      const after = await api.request<Payout[]>('/app_api/payouts', { signal, fromSiteRoot: true })
      // The balance stops polling once nothing is in flight, so the reading that shows the change must refresh it.
      if (before && payoutsChanged(before, after)) void queryClient.invalidateQueries({ queryKey: balanceKey, exact: true })
      return after
    },
    refetchInterval: (query) => (query.state.data && hasPayoutInFlight(query.state.data) ? payoutPollMs : false),
    retry: retryUnlessClientError,
  })
}

/** GET /app_api/balance (at the site root); `poll` keeps it in step with a payout on its way. */
export function useBalance(poll: boolean) {
  const api = useApiClient()
  return useQuery({
    queryKey: balanceKey,
    queryFn: ({ signal }) => api.request<Balance>('/app_api/balance', { signal, fromSiteRoot: true }),
    refetchInterval: poll ? payoutPollMs : false,
    retry: retryUnlessClientError,
  })
}

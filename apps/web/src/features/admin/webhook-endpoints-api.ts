import type { WebhookDelivery, WebhookEndpoint } from '@pactum/contracts/partner-webhooks'
import type { z } from 'zod'
import type { createdWebhookEndpointSchema, webhookEndpointBodySchema, webhookReplayBodySchema } from '@pactum/contracts/partner-webhooks'
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

/** A partner client's webhook endpoints and their deliveries, as the console reads and changes them (issue 35). */

export type CreatedWebhookEndpoint = z.infer<typeof createdWebhookEndpointSchema>
export type WebhookEndpointBody = z.infer<typeof webhookEndpointBodySchema>
export type WebhookReplayBody = z.infer<typeof webhookReplayBodySchema>

/** The server's page size for deliveries (`webhookDeliveryQuerySchema`'s default is 50; the console asks for fewer). */
export const deliveriesPageSize = 25

const endpointsPath = (clientId: string) => `/admin/clients/${encodeURIComponent(clientId)}/webhook_endpoints`
const endpointPath = (clientId: string, id: string) => `${endpointsPath(clientId)}/${encodeURIComponent(id)}`
const endpointsKey = (clientId: string) => ['admin', 'webhook_endpoints', clientId] as const
const deliveriesKey = (clientId: string, id: string) => ['admin', 'webhook_endpoints', clientId, id, 'deliveries'] as const

export function useWebhookEndpoints(clientId: string) {
  const api = useApiClient()
  return useQuery({
    queryKey: endpointsKey(clientId),
    queryFn: ({ signal }) => api.request<WebhookEndpoint[]>(endpointsPath(clientId), { signal }),
  })
}

/** After a change to an endpoint: the list (and every endpoint's deliveries under it) is stale. */
function useEndpointsChanged(clientId: string) {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: endpointsKey(clientId) })
}

export function useCreateWebhookEndpoint(clientId: string) {
  const api = useApiClient()
  const changed = useEndpointsChanged(clientId)
  return useMutation({
    mutationFn: (body: WebhookEndpointBody) => api.request<CreatedWebhookEndpoint>(endpointsPath(clientId), { method: 'POST', body }),
    onSuccess: changed,
  })
}

export function useRotateWebhookSecret(clientId: string) {
  const api = useApiClient()
  const changed = useEndpointsChanged(clientId)
  return useMutation({
    mutationFn: (id: string) => api.request<CreatedWebhookEndpoint>(`${endpointPath(clientId, id)}/rotate_secret`, { method: 'POST' }),
    onSuccess: changed,
  })
}

export function useEnableWebhookEndpoint(clientId: string) {
  const api = useApiClient()
  const changed = useEndpointsChanged(clientId)
  return useMutation({
    mutationFn: (id: string) => api.request<WebhookEndpoint>(`${endpointPath(clientId, id)}/enable`, { method: 'POST' }),
    onSuccess: changed,
  })
}

export function useDeleteWebhookEndpoint(clientId: string) {
  const api = useApiClient()
  const changed = useEndpointsChanged(clientId)
  return useMutation({
    mutationFn: (id: string) => api.request<void>(endpointPath(clientId, id), { method: 'DELETE' }),
    onSuccess: changed,
  })
}

/** How often the deliveries are read again while one of them is still waiting to be sent. */
const pendingRefreshMs = 3000

/** An endpoint's deliveries, newest event first, a page at a time (`before` is the last event id of the page before). */
export function useWebhookDeliveries(clientId: string, id: string) {
  const api = useApiClient()
  return useInfiniteQuery({
    queryKey: deliveriesKey(clientId, id),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.request<WebhookDelivery[]>(`${endpointPath(clientId, id)}/deliveries`, {
        query: { limit: deliveriesPageSize, before: pageParam },
        signal,
      }),
    getNextPageParam: (page: WebhookDelivery[]) => (page.length < deliveriesPageSize ? undefined : page.at(-1)?.event_id),
    // A replay or a retry changes them without the console doing anything: follow them until they settle.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.some((delivery) => delivery.status === 'pending')) ? pendingRefreshMs : false,
  })
}

export function useReplayWebhooks(clientId: string, id: string) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: WebhookReplayBody) =>
      api.request<{ replayed: number }>(`${endpointPath(clientId, id)}/replay`, { method: 'POST', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(clientId, id) }),
  })
}

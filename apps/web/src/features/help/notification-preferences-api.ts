import type { NotificationPreferences } from '@pactum/contracts/notification-preferences'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

export const notificationPreferencesKey = ['me', 'notification_preferences'] as const

/** GET /me/notification_preferences: which optional e-mails Pactum sends this person. */
export function useNotificationPreferences() {
  const api = useApiClient()
  return useQuery({
    queryKey: notificationPreferencesKey,
    queryFn: ({ signal }) => api.request<NotificationPreferences>('/me/notification_preferences', { signal }),
  })
}

/**
 * PUT /me/notification_preferences with every category. The switch moves at
 * once (the cache is set before the call) and moves back if saving fails.
 * Saves run one after another (one mutation scope), so two quick changes
 * reach the server in the order they were made and the last one stands.
 */
export function useSaveNotificationPreferences() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    scope: { id: 'notification_preferences' },
    mutationFn: (preferences: NotificationPreferences) =>
      api.request<NotificationPreferences>('/me/notification_preferences', { method: 'PUT', body: preferences }),
    onMutate: (preferences) => {
      const before = queryClient.getQueryData<NotificationPreferences>(notificationPreferencesKey)
      queryClient.setQueryData(notificationPreferencesKey, preferences)
      return { before }
    },
    onError: (_error, _preferences, context) => {
      if (context?.before) queryClient.setQueryData(notificationPreferencesKey, context.before)
    },
    onSuccess: (saved) => queryClient.setQueryData(notificationPreferencesKey, saved),
  })
}

import type { Locale } from '@pactum/domain/locales'
import type { NotificationLanguage } from '@pactum/contracts/profile'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useApiClient } from '../../lib/api/api-client-context.tsx'

export const notificationLanguageKey = ['me', 'notification_language'] as const
export const supportedNotificationLanguagesKey = ['supported_notification_languages'] as const

/** GET /me/notification_language: the language Pactum's e-mails to this person are written in. */
export function useNotificationLanguage() {
  const api = useApiClient()
  return useQuery({
    queryKey: notificationLanguageKey,
    queryFn: ({ signal }) => api.request<NotificationLanguage>('/me/notification_language', { signal }),
  })
}

/** GET /supported_notification_languages; fixed by the server's release, so read once. */
export function useSupportedNotificationLanguages() {
  const api = useApiClient()
  return useQuery({
    queryKey: supportedNotificationLanguagesKey,
    queryFn: ({ signal }) => api.request<NotificationLanguage[]>('/supported_notification_languages', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  })
}

/** POST /me/notification_language (200 with the language, or 204); the cached value follows on success. */
export function useSetNotificationLanguage() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (language_code: Locale) => api.request<unknown>('/me/notification_language', { method: 'POST', body: { language_code } }),
    onSuccess: (_answer, language_code) => {
      queryClient.setQueryData<NotificationLanguage>(notificationLanguageKey, { language_code })
    },
  })
}

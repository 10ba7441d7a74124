import type { ChangeEmailBody, EmailConfirmationSent } from '@pactum/contracts/me'
import { useMutation } from '@tanstack/react-query'
import { useApiClient } from './api-client-context.tsx'

/** POST /me/email: e-mails a link to the new address (embedded sign-in only). */
export function useChangeEmail() {
  const api = useApiClient()
  return useMutation({
    mutationFn: (body: ChangeEmailBody) => api.request<EmailConfirmationSent>('/me/email', { method: 'POST', body }),
  })
}

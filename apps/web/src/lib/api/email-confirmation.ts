import type { EmailConfirmationSent } from '@pactum/contracts/me'
import { useMutation } from '@tanstack/react-query'
import { useApiClient } from './api-client-context.tsx'

/** POST /me/email_confirmation: e-mails the address confirmation link again (embedded sign-in only). */
export function useResendEmailConfirmation() {
  const api = useApiClient()
  return useMutation({
    mutationFn: () => api.request<EmailConfirmationSent>('/me/email_confirmation', { method: 'POST' }),
  })
}

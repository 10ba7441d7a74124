import type { Passkey, PasskeyOptionsBody, RegisterPasskeyBody } from '@pactum/contracts/passkeys'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useApiClient } from './api-client-context.tsx'
import { retryUnlessClientError } from './profile-queries.ts'

const passkeysKey = ['me', 'passkeys'] as const

/** GET /me/passkeys: the signed-in account's passkeys (embedded sign-in only). */
export function usePasskeys(enabled: boolean) {
  const api = useApiClient()
  return useQuery({ queryKey: passkeysKey, queryFn: () => api.request<Passkey[]>('/me/passkeys'), enabled, retry: retryUnlessClientError })
}

/**
 * Adding a passkey: the password buys WebAuthn creation options, the
 * browser makes the key (`create`, @simplewebauthn/browser), the server
 * keeps its public half.
 */
export function useAddPasskey(create: (options: unknown) => Promise<RegisterPasskeyBody['response']>) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ name, current_password }: PasskeyOptionsBody & { name: string }) => {
      const options = await api.request<unknown>('/me/passkeys/registration_options', { method: 'POST', body: { current_password } })
      const response = await create(options)
      return api.request<Passkey>('/me/passkeys', { method: 'POST', body: { name, response } })
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  })
}

export function useRemovePasskey() {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.request<null>(`/me/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  })
}

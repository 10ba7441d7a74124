import type { PublishableKey } from '@pactum/contracts/transactions'
import { useQuery } from '@tanstack/react-query'
import type { ApiClient } from '../api/api-client.ts'
import { useApiClient } from '../api/api-client-context.tsx'

/**
 * The payment provider's publishable key for a checkout (spec §7): the
 * transaction's own (`GET /transactions/{id}/stripe_publishable_key`, which
 * answers for both kinds of sale), and when that call fails, the signed-in
 * user's (`GET /me/personal/stripe_publishable_key`; spec §8 "falls back").
 * If both fail, the second failure is the one reported.
 */
export async function fetchPublishableKey(api: ApiClient, transactionId: string, signal?: AbortSignal): Promise<string> {
  try {
    const answer = await api.request<PublishableKey>(`/transactions/${encodeURIComponent(transactionId)}/stripe_publishable_key`, {
      signal,
    })
    return answer.publishable_key
  } catch (error) {
    // A checkout closed mid-call is not a failure to recover from.
    if (signal?.aborted) throw error
    const answer = await api.request<PublishableKey>('/me/personal/stripe_publishable_key', { signal })
    return answer.publishable_key
  }
}

export type PaymentProvider = 'stripe' | 'sandbox'

/** Stripe's own keys start `pk_test_` or `pk_live_`; any other key is the embedded sandbox's (`pk_sandbox_pactum` by default). */
export function providerOfKey(publishableKey: string): PaymentProvider {
  return /^pk_(test|live)_/.test(publishableKey) ? 'stripe' : 'sandbox'
}

/** The payment forms the checkout has: the sandbox's own card/IBAN form, or Stripe.js's Payment Element. */
export type PaymentForm = 'sandbox' | 'stripe'

/** Which form the checkout shows for a key: a real Stripe key gets Stripe.js; the sandbox's key its own form. */
export function paymentFormFor(publishableKey: string): PaymentForm {
  return providerOfKey(publishableKey)
}

export interface PaymentSetup {
  publishableKey: string
  form: PaymentForm
}

/** The key and the form for a checkout, asked once per transaction as the checkout opens. */
export function usePaymentSetup(transactionId: string) {
  const api = useApiClient()
  return useQuery({
    queryKey: ['publishable-key', transactionId],
    queryFn: async ({ signal }): Promise<PaymentSetup> => {
      const publishableKey = await fetchPublishableKey(api, transactionId, signal)
      return { publishableKey, form: paymentFormFor(publishableKey) }
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
}

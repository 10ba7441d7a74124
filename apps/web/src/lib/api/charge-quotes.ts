import type { ChargeQuote, PaymentMethod } from '@pactum/contracts/transactions'
import { useQuery } from '@tanstack/react-query'
import { fallbackCurrencies } from '../money.ts'
import { ApiError } from './api-error.ts'
import { useApiClient } from './api-client-context.tsx'

/**
 * `GET /charge` (`/p2p/charge` for a face-to-face deposit): the buyer
 * protection fee for a price. Disabled until there is a price to ask about.
 */
export function useChargeQuote(params: { price: number | null; currency: string; paymentMethod: PaymentMethod; path?: '/charge' | '/p2p/charge' }) {
  const api = useApiClient()
  const { price, currency, paymentMethod, path = '/charge' } = params
  return useQuery({
    queryKey: ['charge', path, currency, price, paymentMethod],
    enabled: price !== null && price > 0,
    queryFn: ({ signal }) =>
      api.request<ChargeQuote>(path, {
        query: { price: price ?? 0, currency, payment_method: paymentMethod },
        signal,
      }),
    staleTime: 60_000,
    retry: false,
  })
}

/** `GET /me/supported_currencies`, or the spec's default list where the server has none (404). */
export function useSupportedCurrencies() {
  const api = useApiClient()
  return useQuery({
    queryKey: ['supported-currencies'],
    queryFn: async ({ signal }) => {
      try {
        const list = await api.request<string[]>('/me/supported_currencies', { signal })
        return Array.isArray(list) && list.length > 0 ? list.map((code) => code.toLowerCase()) : [...fallbackCurrencies]
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.code === 'not_found')) return [...fallbackCurrencies]
        throw error
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
}

/**
 * Card and P24 are always offered; SEPA only where the server quotes it (it is
 * disabled by default, DESIGN §2). There is no list endpoint, so we ask for a
 * SEPA quote once per currency and offer SEPA when it is answered.
 */
export function useOfferedPaymentMethods(currency: string): PaymentMethod[] {
  const api = useApiClient()
  const sepa = useQuery({
    queryKey: ['sepa-offered', currency],
    queryFn: async ({ signal }) => {
      try {
        await api.request<ChargeQuote>('/charge', { query: { price: 10_000, currency, payment_method: 'sepa' }, signal })
        return true
      } catch {
        return false
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
  return sepa.data ? ['card', 'p24', 'sepa'] : ['card', 'p24']
}

import type { ChargeQuote, PaymentMethod } from '@pactum/contracts/transactions'
import { methodTakesCurrency } from '@pactum/domain/currencies'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { fallbackCurrencies } from '../money.ts'
import { ApiError } from './api-error.ts'
import { useApiClient } from './api-client-context.tsx'

/**
 * `GET /charge` (`/p2p/charge` for a face-to-face deposit, or a face-to-face
 * sale's own `/p2p/transactions/{id}/charge` for what is left after its
 * deposit): the buyer protection fee for a price. Disabled until there is a
 * price to ask about; a currency or method left out is not asked about.
 */
export function useChargeQuote(params: { price: number | null; currency?: string; paymentMethod?: PaymentMethod; path?: string }) {
  const api = useApiClient()
  const { price, currency, paymentMethod, path = '/charge' } = params
  return useQuery({
    queryKey: ['charge', path, currency, price, paymentMethod],
    enabled: price !== null && price > 0,
    queryFn: ({ signal }) =>
      api.request<ChargeQuote>(path, {
        query: { price: price ?? 0, ...(currency ? { currency } : {}), ...(paymentMethod ? { payment_method: paymentMethod } : {}) },
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

/** What every user may pay by (DESIGN §2): offered while the user's own list loads or if it cannot be had. */
const everyonesMethods: PaymentMethod[] = ['card', 'p24']

/**
 * `GET /me/supported_payment_methods`: the methods this user may create with
 * and pay by. The server refuses any other with `payment_method_not_allowed`,
 * so nothing else is ever offered. With `currency`, only the methods that
 * take it (P24 is EUR or PLN, SEPA EUR: `methodTakesCurrency`, decision
 * 104), since the server refuses any other pair with `unsupported_combination`.
 */
export function useOfferedPaymentMethods(currency?: string): PaymentMethod[] {
  const api = useApiClient()
  const methods = useQuery({
    queryKey: ['supported-payment-methods'],
    queryFn: ({ signal }) => api.request<PaymentMethod[]>('/me/supported_payment_methods', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  })
  const allowed = methods.data && methods.data.length > 0 ? methods.data : everyonesMethods
  return useMemo(
    () => (currency === undefined ? allowed : allowed.filter((method) => methodTakesCurrency(method, currency))),
    [allowed, currency],
  )
}

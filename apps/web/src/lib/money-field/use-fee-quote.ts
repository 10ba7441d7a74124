import type { ChargeQuote, PaymentMethod } from '@pactum/contracts/transactions'
import { useState } from 'react'
import { useChargeQuote } from '../api/charge-quotes.ts'
import { errorCodeOf } from '../api/error-message.ts'
import { useDebouncedValue } from '../use-debounced-value.ts'

/** How long the typed price must stay still before its fee is asked for. */
export const quoteDebounceMs = 400

/** The server's answers when the fee a form sent is no longer the one it would charge. */
const staleFeeCodes = new Set(['incorrect_charge', 'incorrect_calc_version'])

export interface FeeQuoteSource {
  /** `/charge` (the default), `/p2p/charge`, or a face-to-face sale's `/p2p/transactions/{id}/charge`. */
  readonly path?: string
  /** Asked about, and required of the answer, where given. */
  readonly currency?: string
  readonly paymentMethod?: PaymentMethod
}

/**
 * The buyer protection fee for the price being typed (null while there is
 * no price to quote): asked once typing pauses, and `shown` only while the
 * answer is for exactly the price, currency and method on screen, so that a
 * form sends no other fee than the one shown. When the server refuses the
 * sent fee as stale, `recoverFromStaleFee` asks again and raises `feeChanged`,
 * so the person confirms the new fee.
 */
export function useFeeQuote(price: number | null, source: FeeQuoteSource) {
  const { path, currency, paymentMethod } = source
  const debouncedPrice = useDebouncedValue(price, quoteDebounceMs)
  const query = useChargeQuote({ price: debouncedPrice, currency, paymentMethod, path })
  const [feeChanged, setFeeChanged] = useState(false)
  const { data } = query
  const shown: ChargeQuote | null =
    data &&
    !query.isFetching &&
    data.price === price &&
    (currency === undefined || data.currency === currency) &&
    (paymentMethod === undefined || data.payment_method === paymentMethod)
      ? data
      : null
  return {
    /** The price as last asked about. */
    debouncedPrice,
    shown,
    loading: query.isFetching,
    error: query.isError ? query.error : null,
    retry: () => void query.refetch(),
    feeChanged,
    /** Before sending again: the warning is for the fee last refused. */
    clearFeeChanged: () => setFeeChanged(false),
    /** True when `error` was the server refusing a stale fee: the new one is being asked for. */
    recoverFromStaleFee: (error: unknown): boolean => {
      if (!staleFeeCodes.has(errorCodeOf(error))) return false
      setFeeChanged(true)
      void query.refetch()
      return true
    },
  }
}

export type FeeQuote = ReturnType<typeof useFeeQuote>

import { minimumPrice } from '@pactum/domain/fees'
import type { Locale } from '@pactum/domain/locales'
import { z } from 'zod'
import { readPrice } from '../../lib/money-field/read-price.ts'

/**
 * The set-price form (POST /p2p/transactions/{id}/set_price): the total as
 * typed in the interface language's format, turned into minor units and held
 * to the rule the server applies (total ≥ deposit + 100, `remainder_too_low`).
 */
export function setPriceFormSchema(input: { currency: string; locale: Locale; deposit: number }) {
  return z.object({
    // Too low (a `PriceError`) is a total that leaves less than the minimum price after the deposit.
    total: z.string().transform((text, context) => {
      const total = readPrice(text, input.currency, input.locale, minimumTotal(input.deposit))
      if (typeof total === 'number') return total
      context.addIssue({ code: 'custom', message: total })
      return z.NEVER
    }),
  })
}

export type SetPriceFormInput = z.input<ReturnType<typeof setPriceFormSchema>>
export type SetPriceFormOutput = z.output<ReturnType<typeof setPriceFormSchema>>

/** The smallest total the seller may set. */
export function minimumTotal(deposit: number): number {
  return deposit + minimumPrice
}

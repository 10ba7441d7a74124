import { minimumPrice } from '@pactum/domain/fees'
import type { Locale } from '@pactum/domain/locales'
import { z } from 'zod'
import { parseMoneyInput } from '../../lib/money.ts'

/** Why a total cannot be sent; the dialog turns each into a translated sentence. */
export type TotalError = 'required' | 'invalid' | 'decimals' | 'tooLarge' | 'remainderTooLow'

/**
 * The set-price form (POST /p2p/transactions/{id}/set_price): the total as
 * typed in the interface language's format, turned into minor units and held
 * to the rule the server applies (total ≥ deposit + 100, `remainder_too_low`).
 */
export function setPriceFormSchema(input: { currency: string; locale: Locale; deposit: number }) {
  return z.object({
    total: z.string().transform((text, context) => {
      const parsed = parseMoneyInput(text, input.currency, input.locale)
      const fail = (error: TotalError) => {
        context.addIssue({ code: 'custom', message: error })
        return z.NEVER
      }
      if (!parsed.ok) {
        return fail(parsed.reason === 'empty' ? 'required' : parsed.reason === 'tooManyDecimals' ? 'decimals' : parsed.reason === 'tooLarge' ? 'tooLarge' : 'invalid')
      }
      if (parsed.minor - input.deposit < minimumPrice) return fail('remainderTooLow')
      return parsed.minor
    }),
  })
}

export type SetPriceFormInput = z.input<ReturnType<typeof setPriceFormSchema>>
export type SetPriceFormOutput = z.output<ReturnType<typeof setPriceFormSchema>>

/** The smallest total the seller may set. */
export function minimumTotal(deposit: number): number {
  return deposit + minimumPrice
}

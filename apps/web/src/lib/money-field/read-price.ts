import type { Locale } from '@pactum/domain/locales'
import { parseMoneyInput } from '../money.ts'

/** Why a typed amount cannot be sent; `usePriceErrorText` turns each into a translated sentence. */
export type PriceError = 'required' | 'invalid' | 'decimals' | 'tooLarge' | 'tooLow'

/** The amount as typed in the interface language's format, in minor units held to `minimum`, or why it cannot be sent. */
export function readPrice(text: string, currency: string, locale: Locale, minimum: number): number | PriceError {
  const parsed = parseMoneyInput(text, currency, locale)
  if (!parsed.ok) {
    const { reason } = parsed
    return reason === 'empty' ? 'required' : reason === 'tooManyDecimals' ? 'decimals' : reason === 'tooLarge' ? 'tooLarge' : 'invalid'
  }
  return parsed.minor < minimum ? 'tooLow' : parsed.minor
}

/** The typed amount when the server could quote its fee, else null (nothing is asked about it). */
export function quotablePrice(text: string, currency: string, locale: Locale, minimum: number): number | null {
  const price = readPrice(text, currency, locale, minimum)
  return typeof price === 'number' ? price : null
}

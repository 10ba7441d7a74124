import { createListingBodySchema } from '@pactum/contracts/listings'
import { minimumPrice } from '@pactum/domain/fees'
import type { Locale } from '@pactum/domain/locales'
import { z } from 'zod'
import { parseMoneyInput } from '../../lib/money.ts'

/** Why a price cannot be sent; the form turns each into a translated sentence. */
export type PriceError = 'required' | 'invalid' | 'decimals' | 'tooLow'

/**
 * The listing form: the contract's fields (kind, use, currency, description)
 * as the API checks them, and the price as typed in the interface language's
 * format, turned into minor units (sent as `price`, or `deposit_price` for a
 * face-to-face listing).
 */
export function listingFormSchema(locale: Locale) {
  return createListingBodySchema.pick({ listing_type: true, type: true, currency: true, description: true }).extend({
    price: z.string(),
  }).transform((values, context) => {
    const parsed = parseMoneyInput(values.price, values.currency, locale)
    const fail = (error: PriceError) => {
      context.addIssue({ code: 'custom', path: ['price'], message: error })
      return z.NEVER
    }
    if (!parsed.ok) return fail(parsed.reason === 'empty' ? 'required' : parsed.reason === 'tooManyDecimals' ? 'decimals' : 'invalid')
    if (parsed.minor < minimumPrice) return fail('tooLow')
    return { ...values, price: parsed.minor }
  })
}

export type ListingFormInput = z.input<ReturnType<typeof listingFormSchema>>
export type ListingFormOutput = z.output<ReturnType<typeof listingFormSchema>>

/** The request body for the kind: a face-to-face listing prices its deposit. */
export function listingBody(values: ListingFormOutput) {
  const { price, ...rest } = values
  return values.type === 'f2f' ? { ...rest, deposit_price: price } : { ...rest, price }
}

import { createListingBodySchema } from '@pactum/contracts/listings'
import { minimumPrice } from '@pactum/domain/fees'
import type { Locale } from '@pactum/domain/locales'
import { z } from 'zod'
import { readPrice } from '../../lib/money-field/read-price.ts'

/**
 * The listing form: the contract's fields (kind, use, currency, description)
 * as the API checks them, and the price as typed in the interface language's
 * format, turned into minor units (sent as `price`, or `deposit_price` for a
 * face-to-face listing).
 */
export function listingFormSchema(locale: Locale) {
  return createListingBodySchema
    .pick({ listing_type: true, type: true, currency: true, description: true })
    .extend({
      price: z.string(),
    })
    .transform((values, context) => {
      const price = readPrice(values.price, values.currency, locale, minimumPrice)
      if (typeof price === 'number') return { ...values, price }
      context.addIssue({ code: 'custom', path: ['price'], message: price })
      return z.NEVER
    })
}

export type ListingFormInput = z.input<ReturnType<typeof listingFormSchema>>
export type ListingFormOutput = z.output<ReturnType<typeof listingFormSchema>>

/** The request body for the kind: a face-to-face listing prices its deposit. */
export function listingBody(values: ListingFormOutput) {
  const { price, ...rest } = values
  return values.type === 'f2f' ? { ...rest, deposit_price: price } : { ...rest, price }
}

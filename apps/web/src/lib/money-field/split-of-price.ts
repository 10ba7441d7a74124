import type { Locale } from '@pactum/domain/locales'
import { z } from 'zod'
import { readPrice } from './read-price.ts'

/**
 * A split of the price in dispute as typed: the buyer's part read in the
 * interface language's format (0 to the price), the seller's part the rest.
 * The settlement offer and the admin's decision both ask for it this way.
 */
export function splitOfPriceSchema(input: { locale: Locale; currency: string; price: number }) {
  const refundOf = (text: string) => readPrice(text, input.currency, input.locale, 0)
  return z
    .object({ refund: z.string() })
    .superRefine((values, context) => {
      const refund = refundOf(values.refund)
      if (typeof refund !== 'number') context.addIssue({ code: 'custom', path: ['refund'], message: refund })
      // `tooLarge` says "more than the price" in the split's messages.
      else if (refund > input.price) context.addIssue({ code: 'custom', path: ['refund'], message: 'tooLarge' })
    })
    .transform((values) => {
      const refund = refundOf(values.refund) as number
      return { refund_to_buyer: refund, release_to_seller: input.price - refund }
    })
}

/** The seller's part of a typed split, or null while the buyer's part cannot be read or is more than the price. */
export function sellerPart(text: string, input: { locale: Locale; currency: string; price: number }): number | null {
  const refund = readPrice(text, input.currency, input.locale, 0)
  return typeof refund === 'number' && refund <= input.price ? input.price - refund : null
}

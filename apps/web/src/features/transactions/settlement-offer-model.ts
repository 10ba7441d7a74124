import { settlementOfferBodySchema } from '@pactum/contracts/disputes'
import type { Locale } from '@pactum/domain/locales'
import { z } from 'zod'
import { splitOfPriceSchema } from '../../lib/money-field/split-of-price.ts'

export interface OfferFormInput {
  /** What goes back to the buyer, as typed; the rest of the price goes to the seller. */
  refund: string
  note: string
}

/** An offer as typed: the split of the price and a note; the result is the API's body, checked by its own schema. */
export function offerFormSchema(input: { locale: Locale; currency: string; price: number }) {
  return z
    .object({ note: z.string().max(1000) })
    .and(splitOfPriceSchema(input))
    .transform((values) => settlementOfferBodySchema.parse(values))
}

export type OfferFormOutput = z.output<ReturnType<typeof offerFormSchema>>

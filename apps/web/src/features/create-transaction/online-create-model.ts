import { hasVisibleCharacter } from '@pactum/contracts/text-rules'
import { paymentMethodSchema } from '@pactum/contracts/transactions'
import { minimumPrice } from '@pactum/domain/fees'
import type { Locale } from '@pactum/domain/locales'
import { z } from 'zod'
import { type PriceError, readPrice } from '../../lib/money-field/read-price.ts'

export const maxDescription = 1000

/** Why a field cannot be sent; the form turns each into a translated sentence (the price's own are `PriceError`s). */
export type OnlineCreateError = 'roleRequired' | 'descriptionRequired' | 'descriptionTooLong'

/**
 * The online build form (POST /me/transactions): the role, then the item,
 * currency, price (typed in the interface language's format, turned into
 * minor units and held to the server's minimum) and payment method.
 */
export function onlineCreateFormSchema(input: { locale: Locale }) {
  return z
    .object({
      role: z.union([z.literal('buyer'), z.literal('seller'), z.literal('')]),
      description: z.string(),
      currency: z.string().regex(/^[a-z]{3}$/),
      price: z.string(),
      payment_method: paymentMethodSchema,
    })
    .transform((values, context) => {
      const fail = (path: string, error: OnlineCreateError | PriceError) => {
        context.addIssue({ code: 'custom', path: [path], message: error })
      }
      if (values.role === '') fail('role', 'roleRequired')
      const description = values.description.trim()
      // Only invisible characters (zero-width spaces, joiners…) is no description either: the contracts' rule.
      if (!hasVisibleCharacter(description)) fail('description', 'descriptionRequired')
      else if (description.length > maxDescription) fail('description', 'descriptionTooLong')
      const price = readPrice(values.price, values.currency, input.locale, minimumPrice)
      if (typeof price !== 'number') fail('price', price)
      if (values.role === '' || typeof price !== 'number') return z.NEVER
      return { role: values.role, description, currency: values.currency, price, payment_method: values.payment_method }
    })
}

export type OnlineCreateFormInput = z.input<ReturnType<typeof onlineCreateFormSchema>>
export type OnlineCreateFormOutput = z.output<ReturnType<typeof onlineCreateFormSchema>>

/** The fields each step checks before the next one opens (the third step reviews). */
export const fieldsByStep: readonly (readonly (keyof OnlineCreateFormInput)[])[] = [
  ['role'],
  ['description', 'currency', 'price', 'payment_method'],
  [],
]

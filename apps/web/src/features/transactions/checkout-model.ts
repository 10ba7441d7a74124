import { type PaymentMethod, paymentMethodSchema, shippingDetailsBodySchema } from '@pactum/contracts/transactions'
import { z } from 'zod'
import type { ShippingAddress } from './checkout-prefill.ts'

/** The checkout's fields: the shipping address, the method, and the sandbox form's card number or IBAN. */
export interface CheckoutFormValues {
  address: ShippingAddress
  method: PaymentMethod
  cardNumber: string
  iban: string
}

/** Countries offered for the shipping address (ISO 3166-1 alpha-2); names come from Intl. */
export const shippingCountries = [
  'at',
  'au',
  'be',
  'bg',
  'ca',
  'ch',
  'cy',
  'cz',
  'de',
  'dk',
  'ee',
  'es',
  'fi',
  'fr',
  'gb',
  'gr',
  'hr',
  'hu',
  'ie',
  'is',
  'it',
  'li',
  'lt',
  'lu',
  'lv',
  'mt',
  'my',
  'nl',
  'no',
  'nz',
  'pl',
  'pt',
  'ro',
  'se',
  'sg',
  'si',
  'sk',
  'us',
]

/** Why a field cannot be sent; the dialog turns each into a translated sentence. */
export type CheckoutFieldError = 'required' | 'invalid' | 'cardNumberInvalid' | 'ibanInvalid'

export const cardDigitsOf = (cardNumber: string) => cardNumber.replace(/\D/g, '')
export const compactIbanOf = (iban: string) => iban.replace(/\s/g, '').toUpperCase()

/** The address as POST …/shipping_details takes it (a blank second line left out). */
export function shippingBodyOf(address: ShippingAddress) {
  return {
    name: address.name.trim(),
    line1: address.line1.trim(),
    ...(address.line2.trim() ? { line2: address.line2.trim() } : {}),
    city: address.city.trim(),
    postal_code: address.postalCode.trim(),
    country_code: address.country,
  }
}

const addressFieldOf: Record<string, keyof ShippingAddress> = {
  name: 'name',
  line1: 'line1',
  line2: 'line2',
  city: 'city',
  postal_code: 'postalCode',
  country_code: 'country',
}

/**
 * The address is checked by the API's own schema (so the dialog refuses
 * what the server would), the card number and IBAN only for the method that
 * uses them. The dialog validates one stage's fields at a time.
 */
export const checkoutFormSchema = z
  .object({
    address: z.object({
      name: z.string(),
      line1: z.string(),
      line2: z.string(),
      city: z.string(),
      postalCode: z.string(),
      country: z.string(),
    }),
    method: paymentMethodSchema,
    cardNumber: z.string(),
    iban: z.string(),
  })
  .superRefine((values, context) => {
    const body = shippingDetailsBodySchema.safeParse(shippingBodyOf(values.address))
    if (!body.success) {
      for (const issue of body.error.issues) {
        const field = addressFieldOf[String(issue.path[0])]
        if (!field) continue
        const error: CheckoutFieldError = values.address[field].trim() === '' ? 'required' : 'invalid'
        context.addIssue({ code: 'custom', path: ['address', field], message: error })
      }
    }
    const digits = cardDigitsOf(values.cardNumber)
    if (values.method === 'card' && (digits.length < 12 || digits.length > 19)) {
      context.addIssue({ code: 'custom', path: ['cardNumber'], message: 'cardNumberInvalid' })
    }
    if (values.method === 'sepa' && !/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(compactIbanOf(values.iban))) {
      context.addIssue({ code: 'custom', path: ['iban'], message: 'ibanInvalid' })
    }
  })

export const addressFields = [
  'address.name',
  'address.line1',
  'address.line2',
  'address.city',
  'address.postalCode',
  'address.country',
] as const

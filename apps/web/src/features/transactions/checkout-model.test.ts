import { describe, expect, it } from 'vitest'
import { type CheckoutFormValues, checkoutFormSchema, shippingBodyOf } from './checkout-model.ts'
import { emptyAddress } from './checkout-prefill.ts'

const address = { name: 'Bea Buyer', line1: '1 Main Street', line2: '', city: 'Dublin', postalCode: 'D01 F5P2', country: 'ie' }
const values = (overrides: Partial<CheckoutFormValues> = {}): CheckoutFormValues => ({
  address,
  method: 'card',
  cardNumber: '4242 4242 4242 4242',
  iban: '',
  ...overrides,
})

function errorsOf(input: CheckoutFormValues): Record<string, string> {
  const result = checkoutFormSchema.safeParse(input)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

describe('the checkout form', () => {
  it('takes a complete address and a full card number', () => {
    expect(errorsOf(values())).toEqual({})
  })

  it('says required for an empty field and invalid for what the API would refuse', () => {
    expect(errorsOf(values({ address: emptyAddress }))).toEqual({
      'address.name': 'required',
      'address.line1': 'required',
      'address.city': 'required',
      'address.postalCode': 'required',
      'address.country': 'required',
    })
    expect(errorsOf(values({ address: { ...address, postalCode: 'D01 #5', country: 'xx' } }))).toEqual({
      'address.postalCode': 'invalid',
      'address.country': 'invalid',
    })
  })

  it('checks the card number for a card, the IBAN for SEPA, and neither for P24', () => {
    expect(errorsOf(values({ cardNumber: '4242' }))).toEqual({ cardNumber: 'cardNumberInvalid' })
    expect(errorsOf(values({ method: 'sepa', cardNumber: '', iban: 'DE89 3704' }))).toEqual({ iban: 'ibanInvalid' })
    expect(errorsOf(values({ method: 'sepa', cardNumber: '', iban: 'de89 3704 0044 0532 0130 00' }))).toEqual({})
    expect(errorsOf(values({ method: 'p24', cardNumber: '' }))).toEqual({})
  })

  it('sends the address trimmed, without a blank second line', () => {
    expect(shippingBodyOf({ ...address, name: '  Bea Buyer ', line2: '  ' })).toEqual({
      name: 'Bea Buyer',
      line1: '1 Main Street',
      city: 'Dublin',
      postal_code: 'D01 F5P2',
      country_code: 'ie',
    })
  })
})

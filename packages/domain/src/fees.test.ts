import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { supportedCurrencies } from './currencies.ts'
import { chargeCalculatorVersion, checkShownCharge, fixedFee, largestPricedAmount, minimumPrice, quoteCharge } from './fees.ts'

function charge(price: number, currency: string, paymentMethod = 'card'): number {
  const result = quoteCharge({ price, currency, paymentMethod })
  if (!result.ok) throw new Error(result.code)
  return result.quote.charge
}

describe('buyer protection fee', () => {
  it('holds for the worked examples of the schedule', () => {
    expect(charge(1234, 'eur')).toBe(78)
    expect(charge(5000, 'eur')).toBe(190)
    expect(charge(10000, 'eur')).toBe(340)
    expect(charge(20000, 'gbp')).toBe(640)
  })
  it('quotes the full shape with the calculator version', () => {
    expect(quoteCharge({ price: 10000, currency: 'eur', paymentMethod: 'card' })).toEqual({
      ok: true,
      quote: {
        price: 10000,
        currency: 'eur',
        paymentMethod: 'card',
        charge: 340,
        chargeSeller: 0,
        chargeBuyerClient: 0,
        chargeSellerClient: 0,
        chargeCalculatorVersion: 1,
      },
    })
    expect(chargeCalculatorVersion).toBe(1)
  })
  it('charges p24 like card and sepa 1 %', () => {
    expect(charge(10000, 'eur', 'p24')).toBe(340)
    expect(charge(10000, 'eur', 'sepa')).toBe(140)
    expect(charge(101, 'eur', 'sepa')).toBe(2 + 40)
  })
  it('uses each currency’s fixed part', () => {
    expect(charge(10000, 'usd')).toBe(340)
    expect(charge(10000, 'aud')).toBe(360)
    expect(charge(10000, 'pln')).toBe(470)
    expect(charge(10000, 'sek')).toBe(750)
    expect(charge(10000, 'myr')).toBe(490)
    expect(charge(10000, 'jpy')).toBe(360)
    expect(fixedFee('chf')).toBe(40)
  })
  it('rounds the percentage up to the next minor unit', () => {
    expect(charge(100, 'eur')).toBe(3 + 40)
    expect(charge(101, 'eur')).toBe(4 + 40)
    expect(charge(133, 'eur')).toBe(4 + 40)
    expect(charge(134, 'eur')).toBe(5 + 40)
  })
  it('equals ceil(rate × price) + fixed for every price', () => {
    fc.assert(
      fc.property(fc.integer({ min: minimumPrice, max: 10 ** 12 }), fc.constantFrom(...supportedCurrencies), (price, currency) => {
        const card = charge(price, currency, 'card') - fixedFee(currency)
        // ceil(3p/100) is the least integer c with 100c ≥ 3p.
        expect(100 * card).toBeGreaterThanOrEqual(3 * price)
        expect(100 * (card - 1)).toBeLessThan(3 * price)
      }),
    )
  })
  it('refuses what it cannot price, with the API codes', () => {
    expect(quoteCharge({ price: 99, currency: 'eur', paymentMethod: 'card' })).toEqual({ ok: false, code: 'price_too_low' })
    expect(quoteCharge({ price: largestPricedAmount + 1, currency: 'eur', paymentMethod: 'card' })).toEqual({
      ok: false,
      code: 'price_too_high',
    })
    expect(quoteCharge({ price: 1e300, currency: 'eur', paymentMethod: 'card' })).toEqual({ ok: false, code: 'price_too_high' })
    expect(quoteCharge({ price: 12.5, currency: 'eur', paymentMethod: 'card' })).toEqual({ ok: false, code: 'validation_failed' })
    expect(quoteCharge({ price: 0, currency: 'eur', paymentMethod: 'card' })).toEqual({ ok: false, code: 'price_too_low' })
    expect(quoteCharge({ price: -1, currency: 'eur', paymentMethod: 'card' })).toEqual({ ok: false, code: 'negative_price' })
    expect(quoteCharge({ price: 1000, currency: 'xxx', paymentMethod: 'card' })).toEqual({ ok: false, code: 'unsupported_currency' })
    expect(quoteCharge({ price: 1000, currency: 'eur', paymentMethod: 'cash' })).toEqual({ ok: false, code: 'invalid_payment_method' })
    expect(quoteCharge({ price: 1000, currency: 'gbp', paymentMethod: 'p24' })).toEqual({ ok: false, code: 'unsupported_combination' })
    expect(quoteCharge({ price: 1000, currency: 'pln', paymentMethod: 'sepa' })).toEqual({ ok: false, code: 'unsupported_combination' })
    expect(quoteCharge({ price: 10.5, currency: 'eur', paymentMethod: 'card' })).toEqual({ ok: false, code: 'validation_failed' })
    expect(quoteCharge({ price: Number.MAX_SAFE_INTEGER, currency: 'eur', paymentMethod: 'card' })).toEqual({
      ok: false,
      code: 'price_too_high',
    })
    expect(quoteCharge({ price: minimumPrice, currency: 'eur', paymentMethod: 'card' }).ok).toBe(true)
  })
})

describe('the charge a user was shown', () => {
  const result = quoteCharge({ price: 10000, currency: 'eur', paymentMethod: 'card' })
  if (!result.ok) throw new Error('quote failed')
  const quote = result.quote
  it('accepts the charge and version the server computes', () => {
    expect(checkShownCharge({ quote, shownCharge: 340, shownVersion: 1 })).toEqual({ ok: true })
  })
  it('refuses another charge', () => {
    expect(checkShownCharge({ quote, shownCharge: 339, shownVersion: 1 })).toEqual({ ok: false, code: 'incorrect_charge' })
  })
  it('refuses a stale schedule version first', () => {
    expect(checkShownCharge({ quote, shownCharge: 339, shownVersion: 0 })).toEqual({ ok: false, code: 'incorrect_calc_version' })
  })
})

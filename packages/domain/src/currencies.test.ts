import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  currencies,
  currenciesForUser,
  enabledCurrencies,
  formatMoney,
  isSupportedCurrency,
  methodTakesCurrency,
  minorUnitsToDecimalString,
  parseDecimalToMinorUnits,
  paymentMethodsForUser,
  supportedCurrencies,
} from './currencies.ts'

const domains = { companyDomain: 'pactum.com', partnerDomains: ['partner.my'] }

describe('currency table', () => {
  it('covers every currency the server supports, with the spec fields', () => {
    const required = [
      'eur',
      'usd',
      'gbp',
      'pln',
      'sek',
      'myr',
      'aud',
      'jpy',
      'aed',
      'chf',
      'czk',
      'dkk',
      'huf',
      'nok',
      'ron',
      'bgn',
      'cad',
      'nzd',
      'sgd',
      'hkd',
      'mxn',
      'brl',
      'thb',
    ]
    expect(supportedCurrencies).toEqual(expect.arrayContaining(required))
    for (const code of supportedCurrencies) {
      const info = currencies[code]
      expect(info.code).toBe(code)
      expect(Object.keys(info).sort()).toEqual(['code', 'decimal_digits', 'name', 'name_plural', 'rounding', 'symbol', 'symbol_native'])
      expect(info.symbol && info.symbol_native && info.name && info.name_plural).toBeTruthy()
    }
  })
  it('uses the ISO 4217 minor units: yen has none, forint has two', () => {
    expect(currencies.jpy.decimal_digits).toBe(0)
    expect(currencies.huf.decimal_digits).toBe(2)
    expect(currencies.eur.decimal_digits).toBe(2)
  })
  it('recognises only lower-case codes it has', () => {
    expect(isSupportedCurrency('eur')).toBe(true)
    expect(isSupportedCurrency('EUR')).toBe(false)
    expect(isSupportedCurrency('xxx')).toBe(false)
    expect(isSupportedCurrency('constructor')).toBe(false)
    expect(isSupportedCurrency(3)).toBe(false)
  })
})

describe('currencies a user may choose', () => {
  it('gives ordinary users the enabled list', () => {
    expect(enabledCurrencies).toEqual(['eur', 'usd', 'gbp', 'pln', 'sek', 'myr', 'aud'])
    expect(currenciesForUser({ email: 'anna@example.com', ...domains })).toEqual(['eur', 'usd', 'gbp', 'pln', 'sek', 'myr', 'aud'])
  })
  it('gives company users every supported currency', () => {
    expect(currenciesForUser({ email: 'staff@Pactum.COM', ...domains })).toEqual(supportedCurrencies)
  })
  it('gives partner users the enabled list plus myr (already in it, so no duplicate)', () => {
    const partner = currenciesForUser({ email: 'shop@partner.my', ...domains })
    expect(partner).toContain('myr')
    expect(new Set(partner).size).toBe(partner.length)
    expect(partner).toEqual(currenciesForUser({ email: 'anna@example.com', ...domains }))
  })
  it('adds myr for partners even where the server narrows the ordinary list', () => {
    const supported = ['eur', 'myr', 'jpy'] as const
    expect(currenciesForUser({ email: 'shop@partner.my', ...domains }, supported)).toEqual(['eur', 'myr'])
    expect(currenciesForUser({ email: 'anna@example.com', ...domains }, supported)).toEqual(['eur', 'myr'])
    expect(currenciesForUser({ email: 'staff@pactum.com', ...domains }, supported)).toEqual(['eur', 'myr', 'jpy'])
  })
  it('never matches a look-alike or sub-domain of the company domain', () => {
    for (const email of ['x@evil-pactum.com', 'x@pactum.com.evil', 'x@mail.pactum.com', 'pactum.com', 'x@']) {
      expect(currenciesForUser({ email, ...domains })).toEqual([...enabledCurrencies])
    }
  })
  it('treats everyone as ordinary when no company domain is configured', () => {
    expect(currenciesForUser({ email: 'x@pactum.com', partnerDomains: [] })).toEqual([...enabledCurrencies])
  })
})

describe('payment methods a user may choose', () => {
  it('offers card and p24 by default, sepa to company users only', () => {
    expect(paymentMethodsForUser({ email: 'anna@example.com', ...domains })).toEqual(['card', 'p24'])
    expect(paymentMethodsForUser({ email: 'shop@partner.my', ...domains })).toEqual(['card', 'p24'])
    expect(paymentMethodsForUser({ email: 'staff@pactum.com', ...domains })).toEqual(['card', 'p24', 'sepa'])
  })
  it('follows the configured methods for everyone else', () => {
    expect(paymentMethodsForUser({ email: 'anna@example.com', ...domains }, ['card', 'sepa'])).toEqual(['card', 'sepa'])
  })
})

describe('the currencies a payment method takes', () => {
  it('takes P24 in EUR and PLN, SEPA in EUR only, cards in every supported currency', () => {
    expect(enabledCurrencies.filter((currency) => methodTakesCurrency('p24', currency))).toEqual(['eur', 'pln'])
    expect(enabledCurrencies.filter((currency) => methodTakesCurrency('sepa', currency))).toEqual(['eur'])
    expect(supportedCurrencies.every((currency) => methodTakesCurrency('card', currency))).toBe(true)
    expect(methodTakesCurrency('card', 'xxx')).toBe(false)
  })
})

describe('minor units as decimal text', () => {
  it('writes amounts with the currency’s decimals', () => {
    expect(minorUnitsToDecimalString(1234, 'eur')).toBe('12.34')
    expect(minorUnitsToDecimalString(5, 'eur')).toBe('0.05')
    expect(minorUnitsToDecimalString(0, 'eur')).toBe('0.00')
    expect(minorUnitsToDecimalString(-5, 'eur')).toBe('-0.05')
    expect(minorUnitsToDecimalString(1234, 'jpy')).toBe('1234')
    expect(minorUnitsToDecimalString(Number.MAX_SAFE_INTEGER, 'usd')).toBe('90071992547409.91')
  })
  it('refuses amounts that are not integers', () => {
    expect(() => minorUnitsToDecimalString(1.5, 'eur')).toThrow(RangeError)
  })
  it('reads typed amounts without rounding', () => {
    expect(parseDecimalToMinorUnits('12.34', 'eur')).toEqual({ ok: true, amount: 1234 })
    expect(parseDecimalToMinorUnits(' 12,5 ', 'eur')).toEqual({ ok: true, amount: 1250 })
    expect(parseDecimalToMinorUnits('7', 'eur')).toEqual({ ok: true, amount: 700 })
    expect(parseDecimalToMinorUnits('.5', 'eur')).toEqual({ ok: true, amount: 50 })
    expect(parseDecimalToMinorUnits('5.000', 'eur')).toEqual({ ok: true, amount: 500 })
    expect(parseDecimalToMinorUnits('1234', 'jpy')).toEqual({ ok: true, amount: 1234 })
    expect(parseDecimalToMinorUnits('-1.01', 'eur')).toEqual({ ok: true, amount: -101 })
    // 0.1 + 0.2 style traps: 1.15 × 100 is 114.99999999999999 in floats.
    expect(parseDecimalToMinorUnits('1.15', 'eur')).toEqual({ ok: true, amount: 115 })
  })
  it('refuses more decimals than the currency has', () => {
    expect(parseDecimalToMinorUnits('12.345', 'eur')).toEqual({ ok: false, problem: 'too_many_decimals' })
    expect(parseDecimalToMinorUnits('12.5', 'jpy')).toEqual({ ok: false, problem: 'too_many_decimals' })
    expect(parseDecimalToMinorUnits('1,234', 'eur')).toEqual({ ok: false, problem: 'too_many_decimals' })
  })
  it('refuses what is not a plain decimal number', () => {
    for (const text of ['', ' ', '.', '-', 'abc', '1e3', '1.2.3', '1 000', '€5', '0x10', 'Infinity', '1,234.5']) {
      expect(parseDecimalToMinorUnits(text, 'eur')).toEqual({ ok: false, problem: 'invalid_format' })
    }
  })
  it('refuses amounts beyond exact integer range', () => {
    expect(parseDecimalToMinorUnits('90071992547409.92', 'eur')).toEqual({ ok: false, problem: 'too_large' })
    expect(parseDecimalToMinorUnits('90071992547409.91', 'eur')).toEqual({ ok: true, amount: Number.MAX_SAFE_INTEGER })
  })
  it('reads back whatever it writes', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.constantFrom(...supportedCurrencies), (amount, currency) => {
        const text = minorUnitsToDecimalString(amount, currency)
        expect(parseDecimalToMinorUnits(text, currency)).toEqual({ ok: true, amount: amount === 0 ? 0 : amount })
      }),
    )
  })
})

describe('money display', () => {
  const plain = (text: string) => text.replace(/\s/g, ' ')
  it('formats with the UI locale', () => {
    expect(formatMoney(1234, 'eur', 'en-GB')).toBe('€12.34')
    expect(plain(formatMoney(123450, 'eur', 'fi-FI'))).toBe('1 234,50 €')
    expect(plain(formatMoney(123456, 'pln', 'pl-PL'))).toBe('1234,56 zł')
  })
  it('shows yen without decimals', () => {
    expect(formatMoney(1234, 'jpy', 'en-GB')).toBe('JP¥1,234')
  })
  it('shows the forint with its two ISO decimals', () => {
    expect(plain(formatMoney(123456, 'huf', 'hu-HU'))).toBe('1234,56 Ft')
  })
  it('keeps every digit of large amounts', () => {
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'usd', 'en-US')).toBe('$90,071,992,547,409.91')
  })
})

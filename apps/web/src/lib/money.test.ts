import { describe, expect, it } from 'vitest'
import {
  formatMoney,
  formatMoneyInput,
  majorTextToMinor,
  priceTextInCurrency,
  minorToMajorString,
  moneyMask,
  parseMoneyInput,
} from './money.ts'

describe('parseMoneyInput', () => {
  it('reads the English decimal point and group commas', () => {
    expect(parseMoneyInput('12.34', 'eur', 'en_gb')).toEqual({ ok: true, minor: 1234 })
    expect(parseMoneyInput('1,234.5', 'eur', 'en_gb')).toEqual({ ok: true, minor: 123450 })
    expect(parseMoneyInput(' 7 ', 'gbp', 'en_gb')).toEqual({ ok: true, minor: 700 })
    expect(parseMoneyInput('.5', 'eur', 'en_gb')).toEqual({ ok: true, minor: 50 })
  })

  it('reads the decimal comma where the locale uses one, and a dot as well where it is not a group separator', () => {
    expect(parseMoneyInput('12,34', 'eur', 'fi_fi')).toEqual({ ok: true, minor: 1234 })
    expect(parseMoneyInput('12.34', 'eur', 'fi_fi')).toEqual({ ok: true, minor: 1234 })
    expect(parseMoneyInput('1 234,56', 'pln', 'pl_pl')).toEqual({ ok: true, minor: 123456 })
    expect(parseMoneyInput('1\u00a0234,56', 'sek', 'sv_se')).toEqual({ ok: true, minor: 123456 })
    expect(parseMoneyInput('1.234,56', 'eur', 'it_it')).toEqual({ ok: true, minor: 123456 })
    expect(parseMoneyInput('1.234', 'eur', 'hr_hr')).toEqual({ ok: true, minor: 123400 })
  })

  it('refuses a separator that cannot be a group separator', () => {
    expect(parseMoneyInput('12,5', 'eur', 'en_gb')).toEqual({ ok: false, reason: 'invalid' })
    expect(parseMoneyInput('12.50', 'eur', 'it_it')).toEqual({ ok: false, reason: 'invalid' })
  })

  it('takes whole yen only', () => {
    expect(parseMoneyInput('1500', 'jpy', 'en_gb')).toEqual({ ok: true, minor: 1500 })
    expect(parseMoneyInput('1,500', 'jpy', 'en_gb')).toEqual({ ok: true, minor: 1500 })
    expect(parseMoneyInput('15.5', 'jpy', 'en_gb')).toEqual({ ok: false, reason: 'tooManyDecimals' })
    expect(moneyMask('jpy', 'en_gb')).toMatchObject({ decimals: 0, inputMode: 'numeric' })
  })

  it('refuses too many decimals, empty, negative and non-numeric input', () => {
    expect(parseMoneyInput('12.345', 'eur', 'en_gb')).toEqual({ ok: false, reason: 'tooManyDecimals' })
    expect(parseMoneyInput('12,345', 'eur', 'pl_pl')).toEqual({ ok: false, reason: 'tooManyDecimals' })
    expect(parseMoneyInput('   ', 'eur', 'en_gb')).toEqual({ ok: false, reason: 'empty' })
    expect(parseMoneyInput('-5', 'eur', 'en_gb')).toEqual({ ok: false, reason: 'invalid' })
    expect(parseMoneyInput('12abc', 'eur', 'en_gb')).toEqual({ ok: false, reason: 'invalid' })
    expect(parseMoneyInput('.', 'eur', 'en_gb')).toEqual({ ok: false, reason: 'invalid' })
    expect(parseMoneyInput('99999999999999999', 'eur', 'en_gb')).toEqual({ ok: false, reason: 'tooLarge' })
  })

  it('never goes through floats', () => {
    expect(parseMoneyInput('0.29', 'eur', 'en_gb')).toEqual({ ok: true, minor: 29 })
    expect(parseMoneyInput('1.15', 'eur', 'en_gb')).toEqual({ ok: true, minor: 115 })
  })
})

describe('masks and formatting', () => {
  it('writes PLN under pl_pl with the złoty sign after the amount', () => {
    expect(moneyMask('pln', 'pl_pl')).toMatchObject({ symbol: 'zł', symbolPosition: 'suffix', decimalSeparator: ',' })
    expect(moneyMask('eur', 'en_gb')).toMatchObject({ symbol: '€', symbolPosition: 'prefix', decimalSeparator: '.' })
  })

  it('formats amounts for the interface language', () => {
    expect(formatMoney(1234, 'eur', 'en_gb')).toBe('€12.34')
    expect(formatMoney(123456, 'pln', 'pl_pl')).toBe('1234,56\u00a0zł')
    expect(formatMoney(1500, 'jpy', 'en_gb')).toBe('JP¥1,500')
    expect(formatMoneyInput(123456, 'eur', 'en_gb')).toBe('1,234.56')
    expect(formatMoneyInput(123456, 'pln', 'pl_pl')).toBe('1\u00a0234,56')
    expect(formatMoneyInput(1500, 'jpy', 'en_gb')).toBe('1,500')
  })

  it('converts between minor units and text with string maths', () => {
    expect(minorToMajorString(5, 2)).toBe('0.05')
    expect(minorToMajorString(-1234, 2)).toBe('-12.34')
    expect(minorToMajorString(700, 0)).toBe('700')
    expect(majorTextToMinor('12.34', 'eur')).toBe(1234)
    expect(majorTextToMinor('12', 'jpy')).toBe(12)
    expect(majorTextToMinor('12.5', 'jpy')).toBeNull()
    expect(majorTextToMinor('12.345', 'eur')).toBeNull()
    expect(majorTextToMinor('abc', 'eur')).toBeNull()
  })
})

describe('a typed price when the currency changes', () => {
  it('keeps the amount, written as the new currency writes it, when both have the same decimals', () => {
    expect(priceTextInCurrency('12,50', 'eur', 'pln', 'pl_pl')).toBe('12,50')
    expect(priceTextInCurrency('1234.5', 'gbp', 'usd', 'en_gb')).toBe('1,234.50')
  })

  it('leaves the text as it is across different decimals, and when it is no amount yet', () => {
    expect(priceTextInCurrency('12.50', 'eur', 'jpy', 'en_gb')).toBe('12.50')
    expect(priceTextInCurrency('twelve', 'eur', 'gbp', 'en_gb')).toBe('twelve')
    expect(priceTextInCurrency('', 'eur', 'gbp', 'en_gb')).toBe('')
  })
})

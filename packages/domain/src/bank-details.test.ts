import { describe, expect, it } from 'vitest'
import { abaChecksumValid, ibanChecksumValid, ibanLengths, last4, payoutCurrenciesFor, validateBankDetails } from './bank-details.ts'
import { sepaCountryCodes } from './countries.ts'

const holder = { account_holder_name: 'Ada Lovelace' }

function fieldsOf(result: ReturnType<typeof validateBankDetails>): string[] {
  return result.ok ? [] : result.errors.map((error) => `${error.field}:${error.problem}`)
}

describe('IBAN (SEPA and other IBAN countries)', () => {
  it('accepts a valid German IBAN, with spaces and lower case', () => {
    const result = validateBankDetails('de', { ...holder, iban: 'de89 3704 0044 0532 0130 00' })
    expect(result).toEqual({
      ok: true,
      normalised: {
        scheme: 'iban',
        country: 'de',
        currency: 'eur',
        accountHolderName: 'Ada Lovelace',
        accountNumber: 'DE89370400440532013000',
        routingNumber: null,
        accountType: null,
        bankName: null,
        last4: '3000',
      },
    })
  })

  it('refuses a wrong check digit', () => {
    expect(fieldsOf(validateBankDetails('de', { ...holder, iban: 'DE89370400440532013001' }))).toEqual(['iban:invalid_checksum'])
    expect(fieldsOf(validateBankDetails('de', { ...holder, iban: 'DE88370400440532013000' }))).toEqual(['iban:invalid_checksum'])
  })

  it('refuses the wrong length for the country', () => {
    expect(fieldsOf(validateBankDetails('de', { ...holder, iban: 'DE8937040044053201300' }))).toEqual(['iban:invalid_length'])
    expect(fieldsOf(validateBankDetails('de', { ...holder, iban: 'DE893704004405320130000' }))).toEqual(['iban:invalid_length'])
  })

  it('refuses an IBAN of another country, bad characters and a missing IBAN', () => {
    expect(fieldsOf(validateBankDetails('fr', { ...holder, iban: 'DE89370400440532013000' }))).toEqual(['iban:wrong_country'])
    expect(fieldsOf(validateBankDetails('de', { ...holder, iban: 'DE89-3704-0044' }))).toEqual(['iban:invalid_format'])
    expect(fieldsOf(validateBankDetails('de', holder))).toEqual(['iban:required'])
  })

  it('knows the length of every SEPA country and checks other examples', () => {
    for (const code of sepaCountryCodes) expect(ibanLengths[code], code).toBeGreaterThanOrEqual(15)
    expect(validateBankDetails('fr', { ...holder, iban: 'FR1420041010050500013M02606' }).ok).toBe(true)
    expect(validateBankDetails('ch', { ...holder, iban: 'CH9300762011623852957' })).toMatchObject({
      ok: true,
      normalised: { currency: 'chf' },
    })
    expect(validateBankDetails('no', { ...holder, iban: 'NO9386011117947' })).toMatchObject({ ok: true, normalised: { currency: 'nok' } })
    expect(validateBankDetails('pl', { ...holder, iban: 'PL61109010140000071219812874' })).toMatchObject({
      ok: true,
      normalised: { currency: 'pln' },
    })
  })

  it('ibanChecksumValid is the ISO 7064 mod 97-10 check', () => {
    expect(ibanChecksumValid('GB82WEST12345698765432')).toBe(true)
    expect(ibanChecksumValid('GB82WEST12345698765433')).toBe(false)
    expect(ibanChecksumValid('not an iban')).toBe(false)
  })
})

describe('account holder and currency', () => {
  it('requires the holder name', () => {
    expect(fieldsOf(validateBankDetails('de', { iban: 'DE89370400440532013000', account_holder_name: '   ' }))).toEqual([
      'account_holder_name:required',
    ])
  })
  it('takes a supported currency and refuses others', () => {
    expect(validateBankDetails('de', { ...holder, iban: 'DE89370400440532013000', currency: 'USD' })).toMatchObject({
      ok: true,
      normalised: { currency: 'usd' },
    })
    expect(fieldsOf(validateBankDetails('de', { ...holder, iban: 'DE89370400440532013000', currency: 'xyz' }))).toEqual([
      'currency:unsupported',
    ])
  })
  it('names every wrong field at once', () => {
    expect(fieldsOf(validateBankDetails('gb', {}))).toEqual([
      'account_holder_name:required',
      'sort_code:required',
      'account_number:required',
    ])
  })
})

describe('United Kingdom', () => {
  it('accepts a sort code with dashes and an 8-digit account number', () => {
    expect(validateBankDetails('gb', { ...holder, sort_code: '12-34-56', account_number: '12345678' })).toMatchObject({
      ok: true,
      normalised: { scheme: 'gb', currency: 'gbp', routingNumber: '123456', accountNumber: '12345678', last4: '5678' },
    })
  })
  it('refuses wrong lengths and letters', () => {
    expect(fieldsOf(validateBankDetails('gb', { ...holder, sort_code: '12345', account_number: '1234567' }))).toEqual([
      'sort_code:invalid_length',
      'account_number:invalid_length',
    ])
    expect(fieldsOf(validateBankDetails('gb', { ...holder, sort_code: '12345a', account_number: '12345678' }))).toEqual([
      'sort_code:invalid_format',
    ])
  })
})

describe('United States', () => {
  const valid = { ...holder, routing_number: '110000000', account_number: '000123456789', account_type: 'checking' }
  it('accepts a routing number with a good ABA checksum', () => {
    expect(validateBankDetails('us', valid)).toMatchObject({
      ok: true,
      normalised: { scheme: 'us', currency: 'usd', routingNumber: '110000000', accountType: 'checking', last4: '6789' },
    })
    expect(abaChecksumValid('021000021')).toBe(true)
  })
  it('refuses a bad ABA checksum, bad lengths and a bad account type', () => {
    expect(fieldsOf(validateBankDetails('us', { ...valid, routing_number: '110000001' }))).toEqual(['routing_number:invalid_checksum'])
    expect(fieldsOf(validateBankDetails('us', { ...valid, routing_number: '11000000' }))).toEqual(['routing_number:invalid_length'])
    expect(fieldsOf(validateBankDetails('us', { ...valid, account_number: '123' }))).toEqual(['account_number:invalid_length'])
    expect(fieldsOf(validateBankDetails('us', { ...valid, account_number: '1'.repeat(18) }))).toEqual(['account_number:invalid_length'])
    expect(fieldsOf(validateBankDetails('us', { ...valid, account_type: 'business' }))).toEqual(['account_type:invalid_format'])
    expect(fieldsOf(validateBankDetails('us', { ...valid, account_type: undefined }))).toEqual(['account_type:required'])
  })
})

describe('Australia', () => {
  it('accepts a BSB and a 5–9 digit account number', () => {
    expect(validateBankDetails('au', { ...holder, bsb: '062-000', account_number: '12345' })).toMatchObject({
      ok: true,
      normalised: { scheme: 'au', currency: 'aud', routingNumber: '062000' },
    })
    expect(validateBankDetails('au', { ...holder, bsb: '062000', account_number: '123456789' }).ok).toBe(true)
  })
  it('refuses wrong lengths', () => {
    expect(fieldsOf(validateBankDetails('au', { ...holder, bsb: '06200', account_number: '1234' }))).toEqual([
      'bsb:invalid_length',
      'account_number:invalid_length',
    ])
    expect(fieldsOf(validateBankDetails('au', { ...holder, bsb: '062000', account_number: '1234567890' }))).toEqual([
      'account_number:invalid_length',
    ])
  })
})

describe('Malaysia', () => {
  it('accepts a listed bank and a 10–16 digit account number', () => {
    expect(validateBankDetails('my', { ...holder, bank_code: 'mbbemykl', account_number: '1234567890' })).toMatchObject({
      ok: true,
      normalised: { scheme: 'my', currency: 'myr', routingNumber: 'MBBEMYKL', bankName: 'Maybank (Malayan Banking)' },
    })
  })
  it('refuses an unknown bank and wrong lengths', () => {
    expect(fieldsOf(validateBankDetails('my', { ...holder, bank_code: 'XXXXMYKL', account_number: '123456789' }))).toEqual([
      'bank_code:unknown_bank',
      'account_number:invalid_length',
    ])
    expect(fieldsOf(validateBankDetails('my', { ...holder, bank_code: 'MBBEMYKL', account_number: '12345678901234567' }))).toEqual([
      'account_number:invalid_length',
    ])
  })
})

describe('Canada and the generic rules', () => {
  it('takes transit, institution and account numbers in Canada', () => {
    expect(
      validateBankDetails('ca', { ...holder, transit_number: '12345', institution_number: '003', account_number: '1234567' }),
    ).toMatchObject({
      ok: true,
      normalised: { scheme: 'ca', currency: 'cad', routingNumber: '12345-003' },
    })
    expect(
      fieldsOf(validateBankDetails('ca', { ...holder, transit_number: '1234', institution_number: '03', account_number: '123456' })),
    ).toEqual(['transit_number:invalid_length', 'institution_number:invalid_length', 'account_number:invalid_length'])
  })
  it('takes a bank code and an account number elsewhere', () => {
    expect(validateBankDetails('sg', { ...holder, bank_code: '7171', account_number: '1234567890' })).toMatchObject({
      ok: true,
      normalised: { scheme: 'generic', currency: 'sgd' },
    })
    expect(fieldsOf(validateBankDetails('sg', { ...holder, bank_code: 'x', account_number: '12' }))).toEqual([
      'bank_code:invalid_format',
      'account_number:invalid_format',
    ])
    // No default payout currency for India: the caller must name one.
    expect(fieldsOf(validateBankDetails('in', { ...holder, bank_code: 'HDFC0000001', account_number: '1234567890' }))).toEqual([
      'currency:required',
    ])
  })
})

describe('last4', () => {
  it('keeps the last four characters only', () => {
    expect(last4('DE89370400440532013000')).toBe('3000')
    expect(last4('123')).toBe('123')
  })
})

describe('payout currencies by country', () => {
  it('gives the country’s own currency first, then what its accounts also settle in', () => {
    expect(payoutCurrenciesFor('us')).toEqual(['usd'])
    expect(payoutCurrenciesFor('my')).toEqual(['myr'])
    expect(payoutCurrenciesFor('ca')).toEqual(['cad', 'usd'])
    expect(payoutCurrenciesFor('de')).toEqual(['eur', 'gbp', 'usd', 'chf', 'dkk', 'nok', 'sek', 'pln', 'czk', 'huf', 'ron', 'bgn'])
    expect(payoutCurrenciesFor('PL').slice(0, 3)).toEqual(['pln', 'eur', 'gbp'])
    expect(payoutCurrenciesFor('in')).toEqual([])
  })

  it('refuses bank details in a currency the country is not paid out in', () => {
    const result = validateBankDetails('us', {
      account_holder_name: 'Ann Lee',
      currency: 'eur',
      routing_number: '110000000',
      account_number: '000123456789',
    })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.errors.map((error) => error.field)).toContain('currency')
  })
})

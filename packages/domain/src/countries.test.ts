import { describe, expect, it } from 'vitest'
import {
  countryByCode,
  europeanCountryCodes,
  isSupportedCountry,
  isUsStateAbbreviation,
  malaysianBanks,
  phoneCodes,
  sepaCountryCodes,
  supportedCountries,
  supportedCountryCodes,
  usStates,
} from './countries.ts'

describe('supported countries', () => {
  it('lists 46 distinct lower-case alpha-2 codes with a name, division label and dial code', () => {
    expect(supportedCountries).toHaveLength(46)
    expect(new Set(supportedCountryCodes).size).toBe(46)
    for (const entry of supportedCountries) {
      expect(entry.code).toMatch(/^[a-z]{2}$/)
      expect(entry.name.length).toBeGreaterThan(2)
      expect(entry.dialCode).toMatch(/^\+\d{1,3}$/)
      if (entry.divisionRequired) expect(entry.divisionLabel).not.toBe('none')
    }
  })

  it('has the expected entries', () => {
    expect(countryByCode('gb')).toMatchObject({ name: 'United Kingdom', dialCode: '+44', divisionLabel: 'county' })
    expect(countryByCode('us')).toMatchObject({ dialCode: '+1', divisionLabel: 'state', divisionRequired: true })
    expect(countryByCode('jp')?.divisionLabel).toBe('prefecture')
    expect(countryByCode('ae')?.divisionLabel).toBe('emirate')
    expect(countryByCode('hk')?.postalCodeRequired).toBe(false)
  })

  it('recognises only supported codes', () => {
    expect(isSupportedCountry('fi')).toBe(true)
    expect(isSupportedCountry('FI')).toBe(false)
    expect(isSupportedCountry('ru')).toBe(false)
    expect(isSupportedCountry(42)).toBe(false)
  })

  it('has 30 European and 27 SEPA codes, all supported, SEPA within Europe', () => {
    expect(europeanCountryCodes).toHaveLength(30)
    expect(new Set(europeanCountryCodes).size).toBe(30)
    expect(sepaCountryCodes).toHaveLength(27)
    expect(new Set(sepaCountryCodes).size).toBe(27)
    for (const code of europeanCountryCodes) expect(isSupportedCountry(code)).toBe(true)
    for (const code of sepaCountryCodes) expect(europeanCountryCodes).toContain(code)
  })

  it('has phone codes for every country', () => {
    expect(phoneCodes).toContainEqual({ dialCode: '+60', countryCode: 'my' })
    expect(phoneCodes).toHaveLength(46)
  })
})

describe('other lists', () => {
  it('has the 50 US states and DC', () => {
    expect(usStates).toHaveLength(51)
    expect(new Set(usStates.map((state) => state.abbreviation)).size).toBe(51)
    expect(isUsStateAbbreviation('CA')).toBe(true)
    expect(isUsStateAbbreviation('ca')).toBe(false)
    expect(isUsStateAbbreviation('XX')).toBe(false)
  })

  it('lists Malaysian banks with their BIC as routing number', () => {
    expect(malaysianBanks.length).toBeGreaterThanOrEqual(10)
    for (const bank of malaysianBanks) expect(bank.routingNumber).toMatch(/^[A-Z]{4}MY[A-Z0-9]{2}$/)
    expect(malaysianBanks).toContainEqual({ name: 'Maybank (Malayan Banking)', routingNumber: 'MBBEMYKL' })
  })
})

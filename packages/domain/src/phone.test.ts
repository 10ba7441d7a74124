import { describe, expect, it } from 'vitest'
import { internationalPhone, isPossibleInternationalPhone } from './phone.ts'

describe('phone numbers', () => {
  it('drops the national trunk 0 where the country does', () => {
    expect(internationalPhone('07700 900123', 'gb')).toBe('+447700900123')
    expect(internationalPhone('7700 900123', 'gb')).toBe('+447700900123')
    expect(internationalPhone('085 123 4567', 'ie')).toBe('+353851234567')
    expect(internationalPhone('040 123 4567', 'fi')).toBe('+358401234567')
    expect(internationalPhone('012-345 6789', 'my')).toBe('+60123456789')
  })

  it("keeps Italy's leading 0, which belongs to the number", () => {
    expect(internationalPhone('06 1234 5678', 'it')).toBe('+390612345678')
  })

  it('takes a number typed with its own dial code, but not with another country’s', () => {
    expect(internationalPhone('+44 (0)7700 900123', 'gb')).toBe('+447700900123')
    expect(internationalPhone('+1 202-555-0123', 'us')).toBe('+12025550123')
    expect(internationalPhone('+33 6 12 34 56 78', 'gb')).toBeUndefined()
  })

  it('refuses what cannot be a number in that country, and an unknown country', () => {
    expect(internationalPhone('123', 'gb')).toBeUndefined()
    expect(internationalPhone('07700 900123 999', 'gb')).toBeUndefined()
    expect(internationalPhone('not a number', 'gb')).toBeUndefined()
    expect(internationalPhone('07700 900123', 'zz')).toBeUndefined()
  })

  it('finds the trunk 0 left inside an E.164 number', () => {
    expect(isPossibleInternationalPhone('+447700900123', 'gb')).toBe(true)
    expect(isPossibleInternationalPhone('+4407700900123', 'gb')).toBe(false)
    expect(isPossibleInternationalPhone('+12025550123', 'us')).toBe(true)
  })
})

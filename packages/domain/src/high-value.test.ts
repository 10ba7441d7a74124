import { describe, expect, it } from 'vitest'
import { highValueRequiresVerification, isHighValue } from './high-value.ts'

describe('high-value transactions', () => {
  it('starts at the threshold, in minor units', () => {
    expect(isHighValue(499_999, 'eur')).toBe(false)
    expect(isHighValue(500_000, 'eur')).toBe(true)
    for (const currency of ['gbp', 'usd', 'aud'] as const) expect(isHighValue(500_000, currency)).toBe(true)
    for (const currency of ['pln', 'myr', 'aed'] as const) {
      expect(isHighValue(1_999_999, currency)).toBe(false)
      expect(isHighValue(2_000_000, currency)).toBe(true)
    }
    expect(isHighValue(4_999_999, 'sek')).toBe(false)
    expect(isHighValue(5_000_000, 'sek')).toBe(true)
  })
  it('never marks a currency without a threshold', () => {
    expect(isHighValue(Number.MAX_SAFE_INTEGER, 'jpy')).toBe(false)
  })
  it('gates payment on identity checks only for the product’s own clients', () => {
    expect(highValueRequiresVerification('pactum-app')).toBe(true)
    expect(highValueRequiresVerification('pactum-landing')).toBe(true)
    expect(highValueRequiresVerification('some-marketplace')).toBe(false)
    expect(highValueRequiresVerification(null)).toBe(false)
    expect(highValueRequiresVerification(undefined)).toBe(false)
  })
})

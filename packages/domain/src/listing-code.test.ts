import { randomBytes as nodeRandomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { checkJoinCode } from './join-code-format.ts'
import { checkListingCode, formatListingCode, generateListingCode, listingCodeAlphabet } from './listing-code.ts'

const secureBytes = (n: number) => new Uint8Array(nodeRandomBytes(n))

describe('listing codes', () => {
  it('are 10 characters of the join codes’ alphabet, which no join code can be mistaken for', () => {
    for (let i = 0; i < 200; i += 1) {
      const code = generateListingCode(secureBytes)
      expect(code).toMatch(new RegExp(`^[${listingCodeAlphabet}]{10}$`))
      expect(checkListingCode(code)).toEqual({ valid: true, code })
      expect(checkJoinCode(code).valid).toBe(false)
    }
  })
  it('are shown in two groups of five and read back whatever the case, spaces or hyphens', () => {
    expect(formatListingCode('K7M2Q9QHDX')).toBe('K7M2Q-9QHDX')
    expect(checkListingCode(' k7m2q-9qhdx ')).toEqual({ valid: true, code: 'K7M2Q9QHDX' })
    expect(checkListingCode('K7M2Q 9QHDX')).toEqual({ valid: true, code: 'K7M2Q9QHDX' })
  })
  it('are read whole: a character outside the alphabet is named, never dropped', () => {
    expect(checkListingCode('K7M2Q-9QHD0')).toEqual({ valid: false, reason: 'characters', characters: ['0'] })
    expect(checkListingCode('K7M2Q-9QHD')).toEqual({ valid: false, reason: 'length' })
  })
})

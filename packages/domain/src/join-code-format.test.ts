import { describe, expect, it } from 'vitest'
import {
  charactersOutsideJoinCodes,
  checkJoinCode,
  isJoinCode,
  joinCodeAlphabet,
  normaliseJoinCodeInput,
  tidyJoinCode,
} from './join-code-format.ts'

describe('join code format', () => {
  it('leaves out characters that are easy to confuse', () => {
    for (const ambiguous of ['0', 'O', '1', 'I', 'L']) expect(joinCodeAlphabet).not.toContain(ambiguous)
    expect(joinCodeAlphabet).toHaveLength(31)
  })

  it('upper-cases input, drops foreign characters and stops at 8', () => {
    expect(normaliseJoinCodeInput(' ab-cd 2345xyz')).toBe('ABCD2345')
    expect(normaliseJoinCodeInput('lo01')).toBe('')
  })

  it('accepts only complete, well-formed codes', () => {
    expect(isJoinCode('ABCD2345')).toBe(true)
    expect(isJoinCode('ABCD234')).toBe(false)
    expect(isJoinCode('abcd2345')).toBe(false)
    expect(isJoinCode('ABCD2340')).toBe(false)
  })
})

describe('checking a code given whole', () => {
  it('forgives letter case and separators, and nothing else', () => {
    expect(tidyJoinCode(' ab-cd 2345\t')).toBe('ABCD2345')
    expect(checkJoinCode('abcd-2345')).toEqual({ valid: true, code: 'ABCD2345' })
    expect(checkJoinCode('ABCD 2345')).toEqual({ valid: true, code: 'ABCD2345' })
  })

  it('refuses a code with characters outside the alphabet instead of dropping them', () => {
    // Dropping the O's would have looked up NTACDE.
    expect(checkJoinCode('NOTACODE')).toEqual({ valid: false, reason: 'characters', characters: ['O'] })
    expect(checkJoinCode('ABCD234L')).toEqual({ valid: false, reason: 'characters', characters: ['L'] })
    expect(checkJoinCode('abcd_2345!')).toEqual({ valid: false, reason: 'characters', characters: ['_', '!'] })
    // Long enough after dropping would still be refused.
    expect(checkJoinCode('ABCD2345O').valid).toBe(false)
  })

  it('upper-cases ASCII letters only, so no other letter turns into a valid one', () => {
    expect(tidyJoinCode('straße')).toBe('STRAßE')
    expect(charactersOutsideJoinCodes('ABCDEFGß')).toEqual(['ß'])
    expect(charactersOutsideJoinCodes('ABC😀')).toEqual(['😀'])
  })

  it('refuses a code of the wrong length', () => {
    expect(checkJoinCode('ABCD234')).toEqual({ valid: false, reason: 'length' })
    expect(checkJoinCode('ABCD23456')).toEqual({ valid: false, reason: 'length' })
    expect(checkJoinCode('')).toEqual({ valid: false, reason: 'length' })
  })
})

import { describe, expect, it } from 'vitest'
import { isJoinCode, joinCodeAlphabet, normaliseJoinCodeInput } from './join-code-format.ts'

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

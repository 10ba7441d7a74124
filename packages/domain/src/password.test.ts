import { describe, expect, it } from 'vitest'
import { passwordProblems } from './password.ts'

describe('password rule', () => {
  it('accepts ten characters with a letter and a digit', () => {
    expect(passwordProblems('abcdefghi1')).toEqual([])
  })
  it('names every problem of a weak password', () => {
    expect(passwordProblems('short')).toEqual(['too_short', 'needs_digit'])
    expect(passwordProblems('1234567890')).toEqual(['needs_letter'])
  })
  it('counts letters of every alphabet', () => {
    expect(passwordProblems('źdźbłożółw9')).toEqual([])
  })
  it('refuses absurdly long input', () => {
    expect(passwordProblems(`a1${'x'.repeat(200)}`)).toEqual(['too_long'])
  })
})

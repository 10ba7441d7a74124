import { randomBytes as nodeRandomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { generateJoinCode } from './join-code.ts'
import { isJoinCode, joinCodeAlphabet } from './join-code-format.ts'

const secureBytes = (n: number) => new Uint8Array(nodeRandomBytes(n))

describe('join code generation', () => {
  it('makes valid 8-character codes from the alphabet', () => {
    for (let i = 0; i < 500; i += 1) {
      const code = generateJoinCode(secureBytes)
      expect(code).toHaveLength(8)
      expect(isJoinCode(code)).toBe(true)
    }
  })
  it('spreads characters evenly over the alphabet', () => {
    const counts = new Map<string, number>()
    const codes = 20_000
    for (let i = 0; i < codes; i += 1) {
      for (const char of generateJoinCode(secureBytes)) counts.set(char, (counts.get(char) ?? 0) + 1)
    }
    const expected = (codes * 8) / joinCodeAlphabet.length
    let chiSquare = 0
    for (const char of joinCodeAlphabet) chiSquare += ((counts.get(char) ?? 0) - expected) ** 2 / expected
    expect(counts.size).toBe(joinCodeAlphabet.length)
    // 30 degrees of freedom: an honest source exceeds 80 about once in a million runs;
    // modulo bias over 160,000 characters would land in the hundreds.
    expect(chiSquare).toBeLessThan(80)
  })
  it('throws bytes away instead of folding them (no modulo bias)', () => {
    // 248 is the first byte past the largest multiple of 31; it must be skipped.
    const feed = [248, 255, 0, 1, 2, 3, 4, 5, 6, 30, 31]
    let position = 0
    const scripted = (n: number) => Uint8Array.from({ length: n }, () => feed[position++ % feed.length] ?? 0)
    expect(generateJoinCode(scripted)).toBe(`ABCDEFG${joinCodeAlphabet[30]}`)
  })
  it('gives up on a source that only returns unusable bytes', () => {
    expect(() => generateJoinCode((n) => new Uint8Array(n).fill(255))).toThrow()
  })
})

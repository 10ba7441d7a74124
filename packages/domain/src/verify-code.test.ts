import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { generateVerifyCode, isVerifyCode, verifyCodeLength } from './verify-code.ts'

describe('verification codes', () => {
  it('writes 16 random bytes as unpadded URL-safe base64, as Node does', () => {
    for (let i = 0; i < 200; i++) {
      const bytes = randomBytes(16)
      const code = generateVerifyCode(() => new Uint8Array(bytes))
      expect(code).toBe(bytes.toString('base64url'))
      expect(code).toHaveLength(verifyCodeLength)
      expect(isVerifyCode(code)).toBe(true)
    }
  })

  it('refuses a source that hands back too few bytes', () => {
    expect(() => generateVerifyCode(() => new Uint8Array(8))).toThrow()
  })

  it('takes nothing but 22 URL-safe base64 characters for a code', () => {
    for (const bad of [
      '',
      'abc',
      'A'.repeat(21),
      'A'.repeat(23),
      `${'A'.repeat(21)}=`,
      `${'A'.repeat(21)}/`,
      `${'A'.repeat(21)}+`,
      `${'A'.repeat(21)} `,
    ])
      expect(isVerifyCode(bad), bad).toBe(false)
  })
})

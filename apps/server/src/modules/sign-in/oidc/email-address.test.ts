import { describe, expect, it } from 'vitest'
import { isValidEmail, normaliseEmail } from './email-address.ts'

describe('e-mail addresses of the embedded sign-in', () => {
  it('takes a local part of 64 characters and refuses 65 (RFC 5321), as the contracts do', () => {
    expect(isValidEmail(`${'a'.repeat(64)}@example.com`)).toBe(true)
    expect(isValidEmail(`${'a'.repeat(65)}@example.com`)).toBe(false)
  })

  it('refuses what has no domain, spaces or a second @', () => {
    for (const address of ['anna', 'anna@example', 'an na@example.com', 'anna@@example.com', '@example.com']) {
      expect(isValidEmail(normaliseEmail(address)), address).toBe(false)
    }
    expect(isValidEmail(normaliseEmail(' Anna@Example.com '))).toBe(true)
  })
})

import { describe, expect, it } from 'vitest'
import { hashPassword, passwordCost, verifyPassword } from './passwords.ts'

describe('passwords', () => {
  it('hashes with scrypt and a random salt, and verifies', async () => {
    const hash = await hashPassword('correct horse 42', passwordCost)
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/)
    expect(await hashPassword('correct horse 42', passwordCost)).not.toBe(hash)
    expect(await verifyPassword('correct horse 42', hash)).toBe(true)
    expect(await verifyPassword('correct horse 43', hash)).toBe(false)
  })

  it('refuses malformed hashes instead of throwing', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false)
    expect(await verifyPassword('x', 'scrypt$a$b$c$d$e')).toBe(false)
  })
})

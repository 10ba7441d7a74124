import { describe, expect, it } from 'vitest'
import { maskedEmail } from './masked-email.ts'

describe('an e-mail address on the public verification page', () => {
  it('keeps the first letter of the name and of the domain, and the top-level domain', () => {
    expect(maskedEmail('jane.doe@example.com')).toBe('j***@e***.com')
    expect(maskedEmail('Sam@Mail.Example.CO.UK')).toBe('s***@m***.uk')
    expect(maskedEmail('x@localhost')).toBe('x***@l***')
  })

  it('never shows more than one character of either part, whatever the address', () => {
    expect(maskedEmail('ünal@ße.de')).toBe('ü***@ß***.de')
    expect(maskedEmail('"a@b"@example.org')).toBe('"***@e***.org')
    expect(maskedEmail('broken')).toBe('b***@***')
  })
})

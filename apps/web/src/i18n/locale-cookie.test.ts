import { describe, expect, it } from 'vitest'
import { pickInitialLocale } from './initial-locale.ts'
import { localeCookie, readLocaleCookie, writeLocaleCookie } from './locale-cookie.ts'

describe('locale cookie', () => {
  it('lives 3650 days on the whole site', () => {
    const cookie = localeCookie('pl_pl', false)
    expect(cookie).toContain('locale=pl_pl')
    expect(cookie).toContain(`max-age=${3650 * 24 * 60 * 60}`)
    expect(cookie).toContain('path=/')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).not.toContain('Secure')
    expect(localeCookie('pl_pl', true)).toContain('; Secure')
  })

  it('is written to the document and read back', () => {
    writeLocaleCookie('fi_fi')
    expect(readLocaleCookie(document.cookie)).toBe('fi_fi')
    writeLocaleCookie('sv_se')
    expect(readLocaleCookie(document.cookie)).toBe('sv_se')
  })

  it('is found among other cookies and normalised', () => {
    expect(readLocaleCookie('a=1; locale=hr_hr; b=2')).toBe('hr_hr')
    expect(readLocaleCookie('locale=pl-PL')).toBe('pl_pl')
    expect(readLocaleCookie('other=1')).toBeUndefined()
    expect(readLocaleCookie('')).toBeUndefined()
  })
})

describe('initial language', () => {
  it('prefers the cookie, then the first browser language we speak, then en_gb', () => {
    expect(pickInitialLocale('locale=it_it', ['pl-PL'])).toBe('it_it')
    expect(pickInitialLocale('', ['de-DE', 'sv', 'pl-PL'])).toBe('sv_se')
    expect(pickInitialLocale('', ['ms-MY'])).toBe('ms_my')
    expect(pickInitialLocale('', ['en-US'])).toBe('en_gb')
    expect(pickInitialLocale('', ['de-DE', 'ja'])).toBe('en_gb')
    expect(pickInitialLocale('', [])).toBe('en_gb')
  })
})

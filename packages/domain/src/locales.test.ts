import { describe, expect, it } from 'vitest'
import { localeFromAcceptLanguage, normaliseLocale, toLanguageTag } from './locales.ts'

describe('locales', () => {
  it('normalises tags and bare languages to a supported locale', () => {
    expect(normaliseLocale('pl-PL')).toBe('pl_pl')
    expect(normaliseLocale('fi')).toBe('fi_fi')
    expect(normaliseLocale('sv_SE')).toBe('sv_se')
  })
  it('falls back to en_gb for anything unknown', () => {
    expect(normaliseLocale('de-DE')).toBe('en_gb')
    expect(normaliseLocale(undefined)).toBe('en_gb')
    expect(normaliseLocale('')).toBe('en_gb')
  })
  it('gives BCP 47 tags', () => {
    expect(toLanguageTag('hr_hr')).toBe('hr-HR')
  })
  it('reads the most wanted language we have from Accept-Language', () => {
    expect(localeFromAcceptLanguage('pl-PL')).toBe('pl_pl')
    expect(localeFromAcceptLanguage('de-DE, it;q=0.9, sv;q=0.95')).toBe('sv_se')
    expect(localeFromAcceptLanguage('en-US,en;q=0.9')).toBe('en_gb')
    expect(localeFromAcceptLanguage('hr;q=0, fi;q=0.5')).toBe('fi_fi')
  })
  it('finds nothing in a header of languages we do not have, or none', () => {
    expect(localeFromAcceptLanguage('de-DE, fr;q=0.8, *;q=0.1')).toBeUndefined()
    expect(localeFromAcceptLanguage('')).toBeUndefined()
    expect(localeFromAcceptLanguage(undefined)).toBeUndefined()
  })
})

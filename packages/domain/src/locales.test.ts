import { describe, expect, it } from 'vitest'
import { normaliseLocale, toLanguageTag } from './locales.ts'

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
})

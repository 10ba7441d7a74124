import { describe, expect, it } from 'vitest'
import { Translator } from './translator.ts'

function translator() {
  const i18n = new Translator({ language: 'en-GB', fallbackLanguage: 'en-GB' })
  i18n.addResources('en-GB', {
    greeting: 'Hello {{name}}',
    units: { hours_one: '{{count}} hour', hours_other: '{{count, number}} hours' },
    only: { english: 'Only in English' },
    list: 'Missing: {{characters, list(type: unit)}}',
  })
  i18n.addResources('pl-PL', {
    greeting: 'Cześć {{name}}',
    units: {
      hours_one: '{{count}} godzina',
      hours_few: '{{count}} godziny',
      hours_many: '{{count}} godzin',
      hours_other: '{{count}} godziny',
    },
    only: { english: '' },
  })
  return i18n
}

describe('the translator', () => {
  it('says a key in the current language, with its values', () => {
    const i18n = translator()
    expect(i18n.t('greeting', { name: 'Anna' })).toBe('Hello Anna')
    i18n.changeLanguage('pl-PL')
    expect(i18n.t('greeting', { name: 'Anna' })).toBe('Cześć Anna')
  })

  it('chooses the plural form by count, with the language’s own rules', () => {
    const i18n = translator()
    expect(i18n.t('units.hours', { count: 1 })).toBe('1 hour')
    expect(i18n.t('units.hours', { count: 1500 })).toBe('1,500 hours')
    i18n.changeLanguage('pl-PL')
    expect([1, 2, 5, 22, 25].map((count) => i18n.t('units.hours', { count }))).toEqual([
      '1 godzina',
      '2 godziny',
      '5 godzin',
      '22 godziny',
      '25 godzin',
    ])
  })

  it('falls back to English for a missing or empty translation, then to defaultValue, then to the key, and reports each miss', () => {
    const i18n = translator()
    const missing: string[] = []
    i18n.onMissingKey((language, key) => missing.push(`${language} ${key}`))
    i18n.changeLanguage('pl-PL')
    expect(i18n.t('only.english')).toBe('Only in English')
    expect(i18n.t('nowhere', { defaultValue: 'said instead' })).toBe('said instead')
    expect(i18n.t('nowhere')).toBe('nowhere')
    expect(missing).toEqual(['pl-PL only.english', 'pl-PL nowhere', 'pl-PL nowhere'])
    expect(i18n.exists('only.english')).toBe(true)
    expect(i18n.exists('nowhere')).toBe(false)
  })

  it('formats lists and numbers through Intl, and leaves out a value not given', () => {
    const i18n = translator()
    expect(i18n.t('list', { characters: ['a', 'b', 'c'] })).toBe('Missing: a, b, c')
    expect(i18n.t('greeting')).toBe('Hello ')
  })

  it('tells its listeners of a change of language, once', () => {
    const i18n = translator()
    const changes: string[] = []
    const stop = i18n.onLanguageChanged((language) => changes.push(language))
    i18n.changeLanguage('pl-PL')
    i18n.changeLanguage('pl-PL')
    stop()
    i18n.changeLanguage('en-GB')
    expect(changes).toEqual(['pl-PL'])
  })

  it('adds later parts of a dictionary to the earlier ones', () => {
    const i18n = translator()
    i18n.addResources('en-GB', { later: { part: 'Arrived later' } })
    expect(i18n.t('later.part')).toBe('Arrived later')
    expect(i18n.t('greeting', { name: 'B' })).toBe('Hello B')
  })
})

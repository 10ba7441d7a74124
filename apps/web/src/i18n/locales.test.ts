import { supportedLocales, toLanguageTag } from '@pactum/domain/locales'
import { describe, expect, it } from 'vitest'
import { createI18n } from './i18n.ts'

type Tree = { [key: string]: string | Tree }

const dictionaries = import.meta.glob<Tree>('./locales/*.json', { eager: true, import: 'default' })
const pluralSuffix = /_(zero|one|two|few|many|other)$/

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(path, value)
    else for (const [k, v] of flatten(value, path)) out.set(k, v)
  }
  return out
}

function dictionary(locale: string): Map<string, string> {
  const tree = dictionaries[`./locales/${locale}.json`]
  if (!tree) throw new Error(`missing ./locales/${locale}.json`)
  return flatten(tree)
}

const baseKeys = (keys: Iterable<string>) => new Set([...keys].map((key) => key.replace(pluralSuffix, '')))
const variables = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((match) => match[1]).sort()
const english = dictionary('en_gb')
const englishPlurals = baseKeys([...english.keys()].filter((key) => pluralSuffix.test(key)))

describe('locale files', () => {
  it('exist for exactly the supported locales', () => {
    expect(Object.keys(dictionaries).sort()).toEqual(supportedLocales.map((locale) => `./locales/${locale}.json`).sort())
  })

  it.each(supportedLocales)('%s has every key of en_gb, no extra keys and no empty values', (locale) => {
    const entries = dictionary(locale)
    expect([...baseKeys(entries.keys())].sort()).toEqual([...baseKeys(english.keys())].sort())
    for (const [key, value] of entries) expect(value.trim(), key).not.toBe('')
  })

  it.each(supportedLocales)('%s has every plural form its language needs', (locale) => {
    const entries = dictionary(locale)
    const categories = new Intl.PluralRules(toLanguageTag(locale)).resolvedOptions().pluralCategories
    for (const base of englishPlurals) {
      for (const category of categories) expect(entries.has(`${base}_${category}`), `${base}_${category}`).toBe(true)
      expect(entries.has(base), `${base} must only exist with plural suffixes`).toBe(false)
    }
  })

  it.each(supportedLocales)('%s uses the same interpolation variables as en_gb', (locale) => {
    const entries = dictionary(locale)
    for (const [key, value] of entries) {
      const englishValue = english.get(key) ?? english.get(`${key.replace(pluralSuffix, '')}_other`)
      expect(englishValue, key).toBeDefined()
      expect(variables(value), key).toEqual(variables(englishValue ?? ''))
    }
  })

  it('is really translated, not copied from English', () => {
    for (const locale of supportedLocales.filter((l) => l !== 'en_gb')) {
      const entries = dictionary(locale)
      expect(entries.get('menu.myTransactions'), locale).not.toBe(english.get('menu.myTransactions'))
      expect(entries.get('feedback.invalidForm'), locale).not.toBe(english.get('feedback.invalidForm'))
    }
  })
})

describe('plurals', () => {
  it('picks the Polish one, few and many forms', async () => {
    const i18n = await createI18n('pl_pl')
    const remaining = (count: number) => i18n.t('joinTransaction.codeRemaining', { count })
    expect(remaining(1)).toBe('Pozostał 1 znak')
    expect(remaining(2)).toBe('Pozostały 2 znaki')
    expect(remaining(4)).toBe('Pozostały 4 znaki')
    expect(remaining(5)).toBe('Pozostało 5 znaków')
    expect(remaining(12)).toBe('Pozostało 12 znaków')
    expect(remaining(22)).toBe('Pozostały 22 znaki')
    expect(i18n.t('units.hours', { count: 24 })).toBe('24 godzin')
  })

  it('picks the Croatian few form and formats counts for the language', async () => {
    const i18n = await createI18n('hr_hr')
    expect(i18n.t('joinTransaction.codeRemaining', { count: 3 })).toBe('Preostala su još 3 znaka')
    expect(i18n.t('joinTransaction.codeRemaining', { count: 21 })).toBe('Preostao je još 21 znak')
    expect(i18n.t('joinTransaction.codeRemaining', { count: 7 })).toBe('Preostalo je još 7 znakova')
  })

  it('falls back to English for a key a language lacks, and sets <html lang>', async () => {
    const i18n = await createI18n('sv_se')
    expect(document.documentElement.lang).toBe('sv-SE')
    expect(i18n.t('menu.myProfile')).toBe('Min profil')
    expect(i18n.t('units.hours', { count: 1 })).toBe('1 timme')
  })
})

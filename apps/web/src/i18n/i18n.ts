import { fallbackLocale, type Locale, normaliseLocale, supportedLocales, toLanguageTag } from '@pactum/domain/locales'
import i18next, { type i18n as I18n, type ResourceLanguage } from 'i18next'
import { initReactI18next } from 'react-i18next'
import type { DictionaryPart } from './dictionary-sections.ts'

// Every dictionary comes in two parts (dictionary-sections.ts): what the first
// screen needs, and the rest. English's first part ships with the entry, so an
// English visitor's first screen waits for no dictionary at all; every other
// part is fetched only when its language is used.
const englishFirst = import.meta.glob<ResourceLanguage>('./locales/en_gb.json', {
  query: '?part=first',
  import: 'default',
  eager: true,
})['./locales/en_gb.json']
const parts: Record<DictionaryPart, Record<string, () => Promise<ResourceLanguage>>> = {
  first: import.meta.glob<ResourceLanguage>(['./locales/*.json', '!./locales/en_gb.json'], { query: '?part=first', import: 'default' }),
  rest: import.meta.glob<ResourceLanguage>('./locales/*.json', { query: '?part=rest', import: 'default' }),
}

// Keyed by the instance's resource store: react-i18next hands components a proxy of the instance, not the instance.
type Store = I18n['store']
const loadedParts = new WeakMap<Store, Map<string, Promise<void>>>()
const completeDictionaries = new WeakMap<Store, Promise<void>>()

/**
 * Records the outcome on the promise the way React's `use` reads it, so a
 * dictionary that is already in never suspends (no loading flash when the
 * language changes).
 */
function readableByReact(promise: Promise<void>): Promise<void> {
  const tracked = promise as Promise<void> & { status?: string; reason?: unknown }
  promise.then(
    () => {
      tracked.status = 'fulfilled'
    },
    (reason: unknown) => {
      tracked.status = 'rejected'
      tracked.reason = reason
    },
  )
  return promise
}

/** Adds one part of `locale`'s dictionary to `instance`, once. */
function loadPart(instance: I18n, locale: Locale, part: DictionaryPart): Promise<void> {
  const loaded = loadedParts.get(instance.store) ?? new Map<string, Promise<void>>()
  loadedParts.set(instance.store, loaded)
  const key = `${locale}:${part}`
  let pending = loaded.get(key)
  if (!pending) {
    const load = part === 'first' && locale === fallbackLocale ? undefined : parts[part][`./locales/${locale}.json`]
    pending = load
      ? load().then((resources) => void instance.addResourceBundle(toLanguageTag(locale), 'translation', resources, true, false))
      : Promise.resolve()
    // A failed download is tried again by the next caller (after a reload, or a change of language).
    pending.catch(() => {
      loaded.delete(key)
      if (part === 'rest') completeDictionaries.delete(instance.store)
    })
    loaded.set(key, pending)
  }
  return pending
}

export interface LoadOptions {
  /**
   * 'await' (the default) resolves once the whole dictionary is in; 'later'
   * once the first screen's part is: the rest is fetched when something first
   * needs it (dictionaryComplete), so My transactions never downloads it.
   */
  rest?: 'await' | 'later'
}

/**
 * i18next runs on BCP 47 tags (`pl-PL`) rather than our `pl_pl` codes, because
 * it hands the language to Intl.PluralRules and Intl.NumberFormat, which reject
 * underscores.
 */
export async function createI18n(locale: Locale, options: LoadOptions = {}): Promise<I18n> {
  const instance = i18next.createInstance()
  instance.on('languageChanged', (tag) => {
    if (typeof document !== 'undefined') document.documentElement.lang = tag
  })
  await instance.use(initReactI18next).init({
    resources: { [toLanguageTag(fallbackLocale)]: { translation: englishFirst ?? {} } },
    partialBundledLanguages: true,
    lng: toLanguageTag(fallbackLocale),
    fallbackLng: toLanguageTag(fallbackLocale),
    supportedLngs: supportedLocales.map(toLanguageTag),
    load: 'currentOnly',
    returnEmptyString: false,
    interpolation: { escapeValue: false },
  })
  await changeLocale(instance, locale, options)
  return instance
}

export async function changeLocale(instance: I18n, locale: Locale, { rest = 'await' }: LoadOptions = {}): Promise<void> {
  await loadPart(instance, locale, 'first')
  completeDictionaries.delete(instance.store)
  if (rest === 'await') await dictionaryComplete(instance, locale)
  await instance.changeLanguage(toLanguageTag(locale))
}

/**
 * Resolves once the whole dictionary of the current language (or `locale`)
 * is in, fetching its rest on the first call. The same promise every time,
 * so React's `use` can wait on it.
 */
export function dictionaryComplete(instance: I18n, locale: Locale = localeOf(instance)): Promise<void> {
  let complete = completeDictionaries.get(instance.store)
  if (!complete) {
    complete = readableByReact(loadPart(instance, locale, 'rest'))
    completeDictionaries.set(instance.store, complete)
  }
  return complete
}

export function localeOf(instance: I18n): Locale {
  return normaliseLocale(instance.resolvedLanguage ?? instance.language)
}

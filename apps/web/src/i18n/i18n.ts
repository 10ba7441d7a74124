import { fallbackLocale, type Locale, normaliseLocale, toLanguageTag } from '@pactum/domain/locales'
import type { DictionaryPart } from './dictionary-sections.ts'
import { firstDictionaryParts } from './first-dictionary-parts.ts'
import { type Dictionary, Translator } from './translator.ts'

// Every dictionary comes in two parts (dictionary-sections.ts): what the first
// screen needs, and the rest. English's first part ships with the entry, so an
// English visitor's first screen waits for no dictionary at all; every other
// part is fetched only when its language is used.
const englishFirst = import.meta.glob<Dictionary>('./locales/en_gb.json', {
  query: '?part=first',
  import: 'default',
  eager: true,
})['./locales/en_gb.json']
const parts: Record<DictionaryPart, Record<string, () => Promise<Dictionary>>> = {
  first: firstDictionaryParts,
  rest: import.meta.glob<Dictionary>('./locales/*.json', { query: '?part=rest', import: 'default' }),
}

const loadedParts = new WeakMap<Translator, Map<string, Promise<void>>>()
const completeDictionaries = new WeakMap<Translator, Promise<void>>()

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
function loadPart(instance: Translator, locale: Locale, part: DictionaryPart): Promise<void> {
  const loaded = loadedParts.get(instance) ?? new Map<string, Promise<void>>()
  loadedParts.set(instance, loaded)
  const key = `${locale}:${part}`
  let pending = loaded.get(key)
  if (!pending) {
    const load = part === 'first' && locale === fallbackLocale ? undefined : parts[part][`./locales/${locale}.json`]
    pending = load ? load().then((resources) => instance.addResources(toLanguageTag(locale), resources)) : Promise.resolve()
    // A failed download is tried again by the next caller (after a reload, or a change of language).
    pending.catch(() => {
      loaded.delete(key)
      if (part === 'rest') completeDictionaries.delete(instance)
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
 * The translator runs on BCP 47 tags (`pl-PL`) rather than our `pl_pl` codes,
 * because it hands the language to Intl.PluralRules and Intl.NumberFormat,
 * which reject underscores.
 */
export async function createI18n(locale: Locale, options: LoadOptions = {}): Promise<Translator> {
  const english = toLanguageTag(fallbackLocale)
  const instance = new Translator({ language: english, fallbackLanguage: english })
  instance.addResources(english, englishFirst ?? {})
  instance.onLanguageChanged((tag) => {
    if (typeof document !== 'undefined') document.documentElement.lang = tag
  })
  if (typeof document !== 'undefined') document.documentElement.lang = english
  await changeLocale(instance, locale, options)
  return instance
}

export async function changeLocale(instance: Translator, locale: Locale, { rest = 'await' }: LoadOptions = {}): Promise<void> {
  await loadPart(instance, locale, 'first')
  completeDictionaries.delete(instance)
  if (rest === 'await') await dictionaryComplete(instance, locale)
  instance.changeLanguage(toLanguageTag(locale))
}

/**
 * Resolves once the whole dictionary of the current language (or `locale`)
 * is in, fetching its rest on the first call. The same promise every time,
 * so React's `use` can wait on it.
 */
export function dictionaryComplete(instance: Translator, locale: Locale = localeOf(instance)): Promise<void> {
  let complete = completeDictionaries.get(instance)
  if (!complete) {
    complete = readableByReact(loadPart(instance, locale, 'rest'))
    completeDictionaries.set(instance, complete)
  }
  return complete
}

export function localeOf(instance: Translator): Locale {
  return normaliseLocale(instance.language)
}

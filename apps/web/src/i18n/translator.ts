/**
 * The translations' engine: dictionaries per language (BCP 47 tags, as
 * Intl wants them), `t(key, values)` with `{{name}}` and `{{name, format}}`
 * interpolation, CLDR plurals (`key_one`, `key_few`, … `key_other`, chosen
 * by `count` through Intl.PluralRules) and English as the fallback.
 *
 * It replaces i18next (≈16 kB of gzipped JavaScript in every first load, of
 * which this app used the part above, issue 13): the dictionaries keep
 * i18next's JSON format, so the translators' files did not change.
 */
export type Dictionary = { [key: string]: string | Dictionary }

export interface TranslateOptions {
  /** Chooses the plural form, and is a value like any other. */
  count?: number
  /** Said when the key is in no dictionary (else the key itself is). */
  defaultValue?: string
  [name: string]: unknown
}

export type TFunction = (key: string, options?: TranslateOptions) => string

type Listener = (language: string) => void
type MissingKeyListener = (language: string, key: string) => void

export class Translator {
  #language: string
  readonly #fallback: string
  readonly #entries = new Map<string, Map<string, string>>()
  readonly #listeners = new Set<Listener>()
  readonly #missingKeyListeners = new Set<MissingKeyListener>()
  readonly #pluralRules = new Map<string, Intl.PluralRules>()

  constructor(options: { language: string; fallbackLanguage: string }) {
    this.#language = options.language
    this.#fallback = options.fallbackLanguage
  }

  /** The current language's tag, e.g. `pl-PL`. */
  get language(): string {
    return this.#language
  }

  /** Adds a dictionary's keys to a language (later parts add to, and replace, earlier ones). */
  addResources(language: string, dictionary: Dictionary): void {
    const entries = this.#entries.get(language) ?? new Map<string, string>()
    flatten(dictionary, '', entries)
    this.#entries.set(language, entries)
  }

  /** Whether the current language, or the fallback, has the key (plural forms count). */
  exists(key: string): boolean {
    return [this.#language, this.#fallback].some((language) => this.#lookup(language, key, undefined) !== undefined)
  }

  changeLanguage(language: string): void {
    if (language === this.#language) return
    this.#language = language
    for (const listener of this.#listeners) listener(language)
  }

  /** Called after every change of language; returns the unsubscription. */
  onLanguageChanged(listener: Listener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Told of every key the language asked for does not have (the fallback's text, or the key, is said instead): for tests. */
  onMissingKey(listener: MissingKeyListener): () => void {
    this.#missingKeyListeners.add(listener)
    return () => this.#missingKeyListeners.delete(listener)
  }

  /** In the current language. */
  readonly t: TFunction = (key, options) => this.translate(this.#language, key, options)

  translate(language: string, key: string, options: TranslateOptions = {}): string {
    let found = this.#lookup(language, key, options.count)
    if (found === undefined) {
      for (const listener of this.#missingKeyListeners) listener(language, key)
      if (language !== this.#fallback) found = this.#lookup(this.#fallback, key, options.count)
    }
    if (found === undefined) return options.defaultValue ?? key
    return found.includes('{{') ? this.#interpolate(found, language, options) : found
  }

  #lookup(language: string, key: string, count: number | undefined): string | undefined {
    const entries = this.#entries.get(language)
    if (!entries) return undefined
    const candidates = count === undefined ? [key] : [`${key}_${this.#plural(language, count)}`, `${key}_other`, key]
    for (const candidate of candidates) {
      const value = entries.get(candidate)
      // An empty translation is a missing one (the fallback language's is said instead).
      if (value) return value
    }
    return undefined
  }

  #plural(language: string, count: number): Intl.LDMLPluralRule {
    let rules = this.#pluralRules.get(language)
    if (!rules) {
      rules = new Intl.PluralRules(language)
      this.#pluralRules.set(language, rules)
    }
    return rules.select(count)
  }

  #interpolate(text: string, language: string, values: TranslateOptions): string {
    return text.replace(/\{\{\s*([\w.]+)\s*(?:,\s*([^}]+?))?\s*\}\}/g, (_placeholder, name: string, format: string | undefined) => {
      const value = values[name]
      if (value === undefined || value === null) return ''
      return format ? formatValue(value, format.trim(), language) : String(value)
    })
  }
}

function flatten(dictionary: Dictionary, prefix: string, into: Map<string, string>): void {
  for (const [key, value] of Object.entries(dictionary)) {
    if (typeof value === 'string') into.set(`${prefix}${key}`, value)
    else flatten(value, `${prefix}${key}.`, into)
  }
}

/** The formats the dictionaries use: `number`, and `list(type: unit)` (Intl.ListFormat's options in brackets). */
function formatValue(value: unknown, format: string, language: string): string {
  const match = /^(\w+)(?:\((.*)\))?$/.exec(format)
  const name = match?.[1]
  const options = Object.fromEntries(
    (match?.[2] ?? '')
      .split(';')
      .map((option) => option.split(':').map((part) => part.trim()))
      .filter((pair): pair is [string, string] => pair.length === 2 && pair[0] !== ''),
  )
  if (name === 'number' && typeof value === 'number') return new Intl.NumberFormat(language, options).format(value)
  if (name === 'list' && Array.isArray(value))
    return new Intl.ListFormat(language, options as Intl.ListFormatOptions).format(value.map(String))
  return String(value)
}

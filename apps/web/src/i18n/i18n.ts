import { fallbackLocale, type Locale, normaliseLocale, supportedLocales, toLanguageTag } from '@pactum/domain/locales'
import i18next, { type i18n as I18n, type ResourceLanguage } from 'i18next'
import { initReactI18next } from 'react-i18next'
import enGb from './locales/en_gb.json'

// The fallback ships with the first chunk; every other language is fetched only
// when chosen, so a visitor downloads one or two dictionaries, not seven.
const lazyDictionaries = import.meta.glob<{ default: ResourceLanguage }>(['./locales/*.json', '!./locales/en_gb.json'])

/**
 * i18next runs on BCP 47 tags (`pl-PL`) rather than our `pl_pl` codes, because
 * it hands the language to Intl.PluralRules and Intl.NumberFormat, which reject
 * underscores.
 */
export async function createI18n(locale: Locale): Promise<I18n> {
  const instance = i18next.createInstance()
  instance.on('languageChanged', (tag) => {
    if (typeof document !== 'undefined') document.documentElement.lang = tag
  })
  await instance.use(initReactI18next).init({
    resources: { [toLanguageTag(fallbackLocale)]: { translation: enGb } },
    lng: toLanguageTag(fallbackLocale),
    fallbackLng: toLanguageTag(fallbackLocale),
    supportedLngs: supportedLocales.map(toLanguageTag),
    load: 'currentOnly',
    returnEmptyString: false,
    interpolation: { escapeValue: false },
  })
  await changeLocale(instance, locale)
  return instance
}

export async function changeLocale(instance: I18n, locale: Locale): Promise<void> {
  const tag = toLanguageTag(locale)
  if (!instance.hasResourceBundle(tag, 'translation')) {
    const load = lazyDictionaries[`./locales/${locale}.json`]
    if (load) instance.addResourceBundle(tag, 'translation', (await load()).default)
  }
  await instance.changeLanguage(tag)
}

export function localeOf(instance: I18n): Locale {
  return normaliseLocale(instance.resolvedLanguage ?? instance.language)
}

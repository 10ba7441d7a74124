import { fallbackLocale, type Locale } from '@pactum/domain/locales'
import type { Dictionary } from './translator.ts'

/** The first part of every dictionary but English's (which ships in the app's script), by `./locales/<locale>.json`. */
export const firstDictionaryParts = import.meta.glob<Dictionary>(['./locales/*.json', '!./locales/en_gb.json'], {
  query: '?part=first',
  import: 'default',
})

/**
 * Starts downloading `locale`'s first part beside the app's script
 * (src/first-requests.ts), instead of once the script has run: a visitor in
 * another language than English saves a round trip before the first screen.
 * i18n.ts imports the same module later and gets it from the browser's
 * module map.
 */
export function startFirstDictionaryPart(locale: Locale): void {
  if (locale === fallbackLocale) return
  // A failure here is i18n.ts's to see and retry, when it imports the part itself.
  firstDictionaryParts[`./locales/${locale}.json`]?.().catch(() => undefined)
}

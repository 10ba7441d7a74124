import { type Locale, normaliseLocale } from '@pactum/domain/locales'
import { readLocaleCookie } from './locale-cookie.ts'

/**
 * The language on arrival: the one chosen before (cookie), else the first
 * browser language we speak, else the fallback.
 */
export function pickInitialLocale(cookies: string, browserLanguages: readonly string[]): Locale {
  const chosen = readLocaleCookie(cookies)
  if (chosen) return chosen
  for (const language of browserLanguages) {
    const locale = normaliseLocale(language)
    // normaliseLocale maps anything unknown to the fallback; only take a real match.
    const primary = language.trim().toLowerCase().split(/[-_]/)[0]
    if (locale.startsWith(`${primary}_`)) return locale
  }
  return normaliseLocale(undefined)
}

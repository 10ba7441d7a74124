/** Interface languages (spec §1). en_gb is the fallback. */
export const supportedLocales = ['en_gb', 'fi_fi', 'hr_hr', 'it_it', 'ms_my', 'pl_pl', 'sv_se'] as const

export type Locale = (typeof supportedLocales)[number]

export const fallbackLocale: Locale = 'en_gb'

/** The cookie that keeps the interface language, read by the web app and the sign-in pages. */
export const localeCookieName = 'locale'

/** Spec §9: the locale cookie lives 3650 days. */
export const localeCookieMaxAgeDays = 3650

export function isSupportedLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (supportedLocales as readonly string[]).includes(value)
}

/** Accepts `pl_pl`, `pl-PL`, `pl` and similar; anything unknown falls back to en_gb. */
export function normaliseLocale(value: string | undefined | null): Locale {
  if (!value) return fallbackLocale
  const lowered = value.trim().toLowerCase().replace('-', '_')
  if (isSupportedLocale(lowered)) return lowered
  const language = lowered.split('_')[0]
  return supportedLocales.find((locale) => locale.startsWith(`${language}_`)) ?? fallbackLocale
}

/** BCP 47 tag for Intl and the html lang attribute. */
export function toLanguageTag(locale: Locale): string {
  const [language, region] = locale.split('_')
  return `${language}-${region?.toUpperCase()}`
}

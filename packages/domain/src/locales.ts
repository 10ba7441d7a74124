/** Interface languages (spec §1). en_gb is the fallback. */
export const supportedLocales = ['en_gb', 'fi_fi', 'hr_hr', 'it_it', 'ms_my', 'pl_pl', 'sv_se'] as const

export type Locale = (typeof supportedLocales)[number]

export const fallbackLocale: Locale = 'en_gb'

/**
 * Each language by its own name, for the language switchers of the web app
 * and the sign-in pages. Deliberately not translated: a reader looks for the
 * name of their language as they write it.
 */
export const languageNames: Record<Locale, string> = {
  en_gb: 'English (UK)',
  fi_fi: 'Suomi',
  hr_hr: 'Hrvatski',
  it_it: 'Italiano',
  ms_my: 'Bahasa Melayu',
  pl_pl: 'Polski',
  sv_se: 'Svenska',
}

/** The cookie that keeps the interface language, read by the web app and the sign-in pages. */
export const localeCookieName = 'locale'

/** Spec §9: the locale cookie lives 3650 days. */
export const localeCookieMaxAgeDays = 3650

export function isSupportedLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (supportedLocales as readonly string[]).includes(value)
}

/** Accepts `pl_pl`, `pl-PL`, `pl` and similar; anything unknown falls back to en_gb. */
export function normaliseLocale(value: string | undefined | null): Locale {
  return (value && matchLocale(value)) || fallbackLocale
}

/** `pl`, `pl-PL`, `pl_pl` → pl_pl; a language we do not have → undefined (no silent English). */
export function matchLocale(tag: string): Locale | undefined {
  const lowered = tag.trim().toLowerCase().replace('-', '_')
  if (isSupportedLocale(lowered)) return lowered
  const language = lowered.split('_')[0]
  if (!language) return undefined
  return supportedLocales.find((locale) => locale.startsWith(`${language}_`))
}

/** The tags of an Accept-Language header, most wanted first (by q, then by order); `*` and q=0 left out. */
function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return []
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';')
      const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, index }
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag)
}

/** The most wanted language of an Accept-Language header that we have, if any. */
export function localeFromAcceptLanguage(header: string | undefined): Locale | undefined {
  for (const tag of parseAcceptLanguage(header)) {
    const match = matchLocale(tag)
    if (match) return match
  }
  return undefined
}

/** BCP 47 tag for Intl and the html lang attribute. */
export function toLanguageTag(locale: Locale): string {
  const [language, region] = locale.split('_')
  return `${language}-${region?.toUpperCase()}`
}

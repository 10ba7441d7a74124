import { type Locale, localeCookieMaxAgeDays, localeCookieName, normaliseLocale } from '@pactum/domain/locales'

const secondsPerDay = 86_400

/** The cookie string that keeps the chosen language; the server's sign-in pages read it too. */
export function localeCookie(locale: Locale, secure: boolean): string {
  const maxAge = localeCookieMaxAgeDays * secondsPerDay
  return `${localeCookieName}=${locale}; path=/; max-age=${maxAge}; SameSite=Lax${secure ? '; Secure' : ''}`
}

/** The locale kept in a `document.cookie` string, if there is one. */
export function readLocaleCookie(cookies: string): Locale | undefined {
  for (const part of cookies.split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === localeCookieName && rest.length > 0) {
      const value = decodeURIComponent(rest.join('='))
      return value ? normaliseLocale(value) : undefined
    }
  }
  return undefined
}

export function writeLocaleCookie(locale: Locale, doc: Document = document): void {
  doc.cookie = localeCookie(locale, doc.location?.protocol === 'https:')
}

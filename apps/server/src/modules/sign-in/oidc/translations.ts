import {
  isSupportedLocale,
  type Locale,
  localeCookieMaxAgeDays,
  localeCookieName,
  localeFromAcceptLanguage,
  matchLocale,
} from '@pactum/domain/locales'
import enGb from './locales/en_gb.json' with { type: 'json' }
import fiFi from './locales/fi_fi.json' with { type: 'json' }
import hrHr from './locales/hr_hr.json' with { type: 'json' }
import itIt from './locales/it_it.json' with { type: 'json' }
import msMy from './locales/ms_my.json' with { type: 'json' }
import plPl from './locales/pl_pl.json' with { type: 'json' }
import svSe from './locales/sv_se.json' with { type: 'json' }

/**
 * The sign-in pages' strings. English is the reference: the type of every
 * other file is checked against it, and a test compares the key sets.
 */
export type MessageKey = keyof typeof enGb
type Messages = Record<MessageKey, string>

export const messages: Record<Locale, Messages> = {
  en_gb: enGb,
  fi_fi: fiFi,
  hr_hr: hrHr,
  it_it: itIt,
  ms_my: msMy,
  pl_pl: plPl,
  sv_se: svSe,
}

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string

export function translator(locale: Locale): Translate {
  const table = messages[locale]
  return (key, values = {}) => table[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
}

/**
 * The page language: the `locale` cookie (the user's explicit choice, shared
 * with the web app), else the client's `ui_locales`, else the browser's
 * Accept-Language, else British English.
 */
export function chooseLocale(sources: {
  cookieHeader?: string | undefined
  uiLocales?: unknown
  acceptLanguage?: string | undefined
}): Locale {
  const fromCookie = readCookie(sources.cookieHeader, localeCookieName)
  if (isSupportedLocale(fromCookie)) return fromCookie
  const requested = typeof sources.uiLocales === 'string' ? sources.uiLocales.split(/\s+/) : []
  for (const tag of requested) {
    const match = matchLocale(tag)
    if (match) return match
  }
  return localeFromAcceptLanguage(sources.acceptLanguage) ?? 'en_gb'
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=')
    if (separator < 0) continue
    if (pair.slice(0, separator).trim() === name) {
      try {
        return decodeURIComponent(pair.slice(separator + 1).trim())
      } catch {
        return undefined
      }
    }
  }
  return undefined
}

/** The same cookie the web app writes (spec §9: 3650 days), readable by it (not HttpOnly). */
export function localeCookie(locale: Locale, secure: boolean): string {
  const maxAge = localeCookieMaxAgeDays * 24 * 60 * 60
  return `${localeCookieName}=${locale}; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure ? '; Secure' : ''}`
}

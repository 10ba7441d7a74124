import { type Locale, toLanguageTag } from '@pactum/domain/locales'

/** `2026-11-02T14:05:00Z` → `2 Nov 2026, 14:05` in the interface language and the browser's time zone. */
export function formatDateTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(toLanguageTag(locale), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
}

export function formatDate(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(toLanguageTag(locale), { dateStyle: 'medium' }).format(new Date(iso))
}

/**
 * A remaining time as the language writes it (`1 day, 3 hr, 5 min`), down to the
 * seconds in the last hour. Units and their plurals come from Intl, not from our
 * dictionaries.
 */
export function formatRemaining(ms: number, locale: Locale): string {
  const tag = toLanguageTag(locale)
  const totalSeconds = Math.max(0, Math.floor(ms / 1000))
  const days = Math.floor(totalSeconds / 86_400)
  const hours = Math.floor((totalSeconds % 86_400) / 3600)
  const minutes = Math.floor((totalSeconds % 3600) / 60)
  const seconds = totalSeconds % 60
  const unit = (value: number, name: 'day' | 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(tag, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value)
  // Seconds only in the last hour; a unit at zero says nothing ("59 secs", not "0 mins 59 secs").
  const shown: Array<[number, 'day' | 'hour' | 'minute' | 'second']> = [
    [days, 'day'],
    [hours, 'hour'],
    [minutes, 'minute'],
    [days === 0 && hours === 0 ? seconds : 0, 'second'],
  ]
  const parts = shown.filter(([value]) => value > 0).map(([value, name]) => unit(value, name))
  return new Intl.ListFormat(tag, { style: 'narrow', type: 'unit' }).format(parts.length > 0 ? parts : [unit(0, 'second')])
}

import { type Locale, toLanguageTag } from '@pactum/domain/locales'

/** Bytes as people read them, in decimal units as the 10 MB limit is (`1.2 MB`, `840 kB`); units come from Intl. */
export function formatFileSize(bytes: number, locale: Locale): string {
  const [value, unit] =
    bytes >= 1_000_000 ? [bytes / 1_000_000, 'megabyte'] : bytes >= 1_000 ? [bytes / 1_000, 'kilobyte'] : [bytes, 'byte']
  return new Intl.NumberFormat(toLanguageTag(locale), { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value)
}

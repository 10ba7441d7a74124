import { type Locale, toLanguageTag } from '@pactum/domain/locales'

/**
 * Bytes as people read them, in decimal units as the 10 MB limit is
 * (`1.2 MB`, `840 kB`, `123 bytes`); units and their plurals come from Intl.
 * Bytes are spelled out: their short form reads "123 byte" in English.
 */
export function formatFileSize(bytes: number, locale: Locale): string {
  const [value, unit] =
    bytes >= 1_000_000 ? [bytes / 1_000_000, 'megabyte'] : bytes >= 1_000 ? [bytes / 1_000, 'kilobyte'] : [bytes, 'byte']
  const unitDisplay = unit === 'byte' ? 'long' : 'short'
  return new Intl.NumberFormat(toLanguageTag(locale), { style: 'unit', unit, unitDisplay, maximumFractionDigits: 1 }).format(value)
}

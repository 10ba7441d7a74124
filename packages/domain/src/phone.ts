import { type CountryCode, getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/min'

/**
 * Phone numbers as people type them, turned into E.164 for the payment
 * provider. The rules of national trunk prefixes differ by country (the UK's
 * 07700 900123 is +44 7700 900123, while Italy keeps its leading 0 and
 * Hungary drops "06"), so they come from libphonenumber's metadata rather
 * than from a rule of our own. Only the length is checked (`isPossible`):
 * the per-range patterns lag behind new number ranges, and refusing a real
 * number would block a payout.
 */

function countryOf(countryCode: string): CountryCode | undefined {
  const upper = countryCode.toUpperCase()
  return isSupportedCountry(upper) ? upper : undefined
}

/**
 * `typed` (national, as "07700 900123", or international, as "+44 7700
 * 900123") as E.164 in `countryCode`'s numbering plan; undefined when it
 * cannot be a number there.
 */
export function internationalPhone(typed: string, countryCode: string): string | undefined {
  const country = countryOf(countryCode)
  if (!country) return undefined
  const parsed = parsePhoneNumberFromString(typed, country)
  if (!parsed || !parsed.isPossible()) return undefined
  // "+33…" typed with the UK selected is a French number, not a UK one.
  if (parsed.countryCallingCode !== getCountryCallingCode(country)) return undefined
  return parsed.number
}

/** Whether an E.164 number has a length its country's plan allows (a national trunk 0 left in makes it too long). */
export function isPossibleInternationalPhone(e164: string, countryCode: string): boolean {
  return internationalPhone(e164, countryCode) === e164
}

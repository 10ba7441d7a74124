/**
 * Countries where sellers can be paid out (spec §3 "Country list", §9: 46).
 * These are the countries where the card payment provider (Stripe) lets a
 * business hold an account — the set connected accounts can be created in.
 * Browser-safe: plain data, no I/O.
 */

/** What a country calls its first-level division, shown as the address "state" field's label. */
export type DivisionLabel = 'state' | 'county' | 'province' | 'region' | 'prefecture' | 'emirate' | 'canton' | 'none'

export interface Country {
  /** Lower-case ISO 3166-1 alpha-2, as `us` (DESIGN §5). */
  code: string
  /** English name. */
  name: string
  divisionLabel: DivisionLabel
  /** Whether an address in this country must name its division (the `state` field). */
  divisionRequired: boolean
  /** Whether addresses in this country have a postal code (Hong Kong and the UAE do not). */
  postalCodeRequired: boolean
  /** International dialling prefix, as `+44`. */
  dialCode: string
}

function country(
  code: string,
  name: string,
  dialCode: string,
  divisionLabel: DivisionLabel = 'none',
  options: { divisionRequired?: boolean; postalCodeRequired?: boolean } = {},
): Country {
  return {
    code,
    name,
    divisionLabel,
    divisionRequired: options.divisionRequired ?? false,
    postalCodeRequired: options.postalCodeRequired ?? true,
    dialCode,
  }
}

const required = { divisionRequired: true }

export const supportedCountries: readonly Country[] = [
  country('ae', 'United Arab Emirates', '+971', 'emirate', { divisionRequired: true, postalCodeRequired: false }),
  country('at', 'Austria', '+43', 'state'),
  country('au', 'Australia', '+61', 'state', required),
  country('be', 'Belgium', '+32', 'province'),
  country('bg', 'Bulgaria', '+359', 'province'),
  country('br', 'Brazil', '+55', 'state', required),
  country('ca', 'Canada', '+1', 'province', required),
  country('ch', 'Switzerland', '+41', 'canton'),
  country('cy', 'Cyprus', '+357'),
  country('cz', 'Czechia', '+420', 'region'),
  country('de', 'Germany', '+49', 'state'),
  country('dk', 'Denmark', '+45', 'region'),
  country('ee', 'Estonia', '+372', 'county'),
  country('es', 'Spain', '+34', 'province'),
  country('fi', 'Finland', '+358', 'region'),
  country('fr', 'France', '+33', 'region'),
  country('gb', 'United Kingdom', '+44', 'county'),
  country('gi', 'Gibraltar', '+350'),
  country('gr', 'Greece', '+30', 'region'),
  country('hk', 'Hong Kong', '+852', 'region', { postalCodeRequired: false }),
  country('hr', 'Croatia', '+385', 'county'),
  country('hu', 'Hungary', '+36', 'county'),
  country('id', 'Indonesia', '+62', 'province', required),
  country('ie', 'Ireland', '+353', 'county'),
  country('in', 'India', '+91', 'state', required),
  country('it', 'Italy', '+39', 'province'),
  country('jp', 'Japan', '+81', 'prefecture', required),
  country('li', 'Liechtenstein', '+423'),
  country('lt', 'Lithuania', '+370', 'county'),
  country('lu', 'Luxembourg', '+352'),
  country('lv', 'Latvia', '+371'),
  country('mt', 'Malta', '+356'),
  country('mx', 'Mexico', '+52', 'state', required),
  country('my', 'Malaysia', '+60', 'state', required),
  country('nl', 'Netherlands', '+31', 'province'),
  country('no', 'Norway', '+47', 'county'),
  country('nz', 'New Zealand', '+64', 'region'),
  country('pl', 'Poland', '+48', 'province'),
  country('pt', 'Portugal', '+351', 'region'),
  country('ro', 'Romania', '+40', 'county'),
  country('se', 'Sweden', '+46', 'county'),
  country('sg', 'Singapore', '+65'),
  country('si', 'Slovenia', '+386'),
  country('sk', 'Slovakia', '+421', 'region'),
  country('th', 'Thailand', '+66', 'province', required),
  country('us', 'United States', '+1', 'state', required),
]

export const supportedCountryCodes: readonly string[] = supportedCountries.map((entry) => entry.code)

export function isSupportedCountry(value: unknown): value is string {
  return typeof value === 'string' && supportedCountryCodes.includes(value)
}

export function countryByCode(code: string): Country | undefined {
  return supportedCountries.find((entry) => entry.code === code)
}

/**
 * The 27 EU member states. Spec §3 names "a SEPA zone list of 27 codes"; all 27
 * are supported countries and take IBAN bank details.
 */
export const sepaCountryCodes: readonly string[] = [
  'at',
  'be',
  'bg',
  'cy',
  'cz',
  'de',
  'dk',
  'ee',
  'es',
  'fi',
  'fr',
  'gr',
  'hr',
  'hu',
  'ie',
  'it',
  'lt',
  'lu',
  'lv',
  'mt',
  'nl',
  'pl',
  'pt',
  'ro',
  'se',
  'si',
  'sk',
]

/**
 * Spec §3: "a list of 30 European country codes": the EU 27 plus the United
 * Kingdom, Switzerland and Norway. (Liechtenstein and Gibraltar are also
 * supported and European; the spec's count of 30 leaves them out.)
 */
export const europeanCountryCodes: readonly string[] = [...sepaCountryCodes, 'gb', 'ch', 'no']

export function isSepaCountry(code: string): boolean {
  return sepaCountryCodes.includes(code)
}

export function isEuropeanCountry(code: string): boolean {
  return europeanCountryCodes.includes(code)
}

/** Phone codes (spec §3 "Other lists": dialCode, countryCode). */
export const phoneCodes: readonly { dialCode: string; countryCode: string }[] = supportedCountries.map((entry) => ({
  dialCode: entry.dialCode,
  countryCode: entry.code,
}))

/** US states and the District of Columbia (spec §3: name, abbreviation). */
export const usStates: readonly { name: string; abbreviation: string }[] = [
  { name: 'Alabama', abbreviation: 'AL' },
  { name: 'Alaska', abbreviation: 'AK' },
  { name: 'Arizona', abbreviation: 'AZ' },
  { name: 'Arkansas', abbreviation: 'AR' },
  { name: 'California', abbreviation: 'CA' },
  { name: 'Colorado', abbreviation: 'CO' },
  { name: 'Connecticut', abbreviation: 'CT' },
  { name: 'Delaware', abbreviation: 'DE' },
  { name: 'District of Columbia', abbreviation: 'DC' },
  { name: 'Florida', abbreviation: 'FL' },
  { name: 'Georgia', abbreviation: 'GA' },
  { name: 'Hawaii', abbreviation: 'HI' },
  { name: 'Idaho', abbreviation: 'ID' },
  { name: 'Illinois', abbreviation: 'IL' },
  { name: 'Indiana', abbreviation: 'IN' },
  { name: 'Iowa', abbreviation: 'IA' },
  { name: 'Kansas', abbreviation: 'KS' },
  { name: 'Kentucky', abbreviation: 'KY' },
  { name: 'Louisiana', abbreviation: 'LA' },
  { name: 'Maine', abbreviation: 'ME' },
  { name: 'Maryland', abbreviation: 'MD' },
  { name: 'Massachusetts', abbreviation: 'MA' },
  { name: 'Michigan', abbreviation: 'MI' },
  { name: 'Minnesota', abbreviation: 'MN' },
  { name: 'Mississippi', abbreviation: 'MS' },
  { name: 'Missouri', abbreviation: 'MO' },
  { name: 'Montana', abbreviation: 'MT' },
  { name: 'Nebraska', abbreviation: 'NE' },
  { name: 'Nevada', abbreviation: 'NV' },
  { name: 'New Hampshire', abbreviation: 'NH' },
  { name: 'New Jersey', abbreviation: 'NJ' },
  { name: 'New Mexico', abbreviation: 'NM' },
  { name: 'New York', abbreviation: 'NY' },
  { name: 'North Carolina', abbreviation: 'NC' },
  { name: 'North Dakota', abbreviation: 'ND' },
  { name: 'Ohio', abbreviation: 'OH' },
  { name: 'Oklahoma', abbreviation: 'OK' },
  { name: 'Oregon', abbreviation: 'OR' },
  { name: 'Pennsylvania', abbreviation: 'PA' },
  { name: 'Rhode Island', abbreviation: 'RI' },
  { name: 'South Carolina', abbreviation: 'SC' },
  { name: 'South Dakota', abbreviation: 'SD' },
  { name: 'Tennessee', abbreviation: 'TN' },
  { name: 'Texas', abbreviation: 'TX' },
  { name: 'Utah', abbreviation: 'UT' },
  { name: 'Vermont', abbreviation: 'VT' },
  { name: 'Virginia', abbreviation: 'VA' },
  { name: 'Washington', abbreviation: 'WA' },
  { name: 'West Virginia', abbreviation: 'WV' },
  { name: 'Wisconsin', abbreviation: 'WI' },
  { name: 'Wyoming', abbreviation: 'WY' },
]

export function isUsStateAbbreviation(value: string): boolean {
  return usStates.some((state) => state.abbreviation === value)
}

/** Major Malaysian banks (spec §3: name, routingNumber); the routing number is the bank's SWIFT/BIC. */
export const malaysianBanks: readonly { name: string; routingNumber: string }[] = [
  { name: 'Affin Bank', routingNumber: 'PHBMMYKL' },
  { name: 'Alliance Bank Malaysia', routingNumber: 'MFBBMYKL' },
  { name: 'AmBank', routingNumber: 'ARBKMYKL' },
  { name: 'Bank Islam Malaysia', routingNumber: 'BIMBMYKL' },
  { name: 'Bank Muamalat Malaysia', routingNumber: 'BMMBMYKL' },
  { name: 'Bank Rakyat', routingNumber: 'BKRMMYKL' },
  { name: 'Bank Simpanan Nasional', routingNumber: 'BSNAMYK1' },
  { name: 'CIMB Bank', routingNumber: 'CIBBMYKL' },
  { name: 'Hong Leong Bank', routingNumber: 'HLBBMYKL' },
  { name: 'HSBC Bank Malaysia', routingNumber: 'HBMBMYKL' },
  { name: 'Maybank (Malayan Banking)', routingNumber: 'MBBEMYKL' },
  { name: 'OCBC Bank (Malaysia)', routingNumber: 'OCBCMYKL' },
  { name: 'Public Bank', routingNumber: 'PBBEMYKL' },
  { name: 'RHB Bank', routingNumber: 'RHBBMYKL' },
  { name: 'Standard Chartered Bank Malaysia', routingNumber: 'SCBLMYKX' },
  { name: 'United Overseas Bank (Malaysia)', routingNumber: 'UOVBMYKL' },
]

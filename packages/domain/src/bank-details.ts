import { isEuropeanCountry, isSepaCountry, malaysianBanks } from './countries.ts'
import { type CurrencyCode, isSupportedCurrency } from './currencies.ts'

/**
 * Payout bank details (spec §3 Debit account; DESIGN §4: IBAN for SEPA
 * countries, local formats otherwise). Pure: no I/O, no logging. Callers must
 * never log or return `accountNumber`; show `last4` instead.
 *
 * Rules by country:
 * - SEPA (the 27 EU states) and the other IBAN countries among the supported
 *   ones (ae, ch, gi, li, no): `iban`, ISO 13616 — the country's own prefix,
 *   the country's length and the mod-97 check digits.
 * - gb: `sort_code` (6 digits, 12-34-56 accepted) + `account_number` (8 digits).
 * - us: `routing_number` (9 digits, ABA checksum) + `account_number` (4–17
 *   digits) + `account_type` checking | savings.
 * - au: `bsb` (6 digits, 123-456 accepted) + `account_number` (5–9 digits).
 * - my: `bank_code` (a malaysianBanks routing number, its SWIFT/BIC) +
 *   `account_number` (10–16 digits).
 * - ca: `transit_number` (5 digits) + `institution_number` (3 digits) +
 *   `account_number` (7–12 digits).
 * - any other country (br, hk, id, in, jp, mx, nz, sg, th): generic rules —
 *   `bank_code` (the local bank/branch routing code: 2–15 letters or digits)
 *   + `account_number` (4–34 letters or digits). The provider does the
 *   country-specific check for these.
 * Everywhere: `account_holder_name` (1–200 characters, not blank).
 * Spaces (and dashes in numeric codes) are stripped before checking.
 */

export type BankDetailsField =
  | 'account_holder_name'
  | 'currency'
  | 'iban'
  | 'sort_code'
  | 'account_number'
  | 'routing_number'
  | 'account_type'
  | 'bsb'
  | 'bank_code'
  | 'transit_number'
  | 'institution_number'

export type BankDetailsProblem =
  'required' | 'invalid_format' | 'invalid_length' | 'invalid_checksum' | 'wrong_country' | 'unknown_bank' | 'unsupported'

export interface BankDetailsError {
  field: BankDetailsField
  problem: BankDetailsProblem
  message: string
}

export type BankDetailsInput = Partial<Record<BankDetailsField, string | undefined>>

export type BankAccountScheme = 'iban' | 'gb' | 'us' | 'au' | 'my' | 'ca' | 'generic'
export type BankAccountType = 'checking' | 'savings'

export interface NormalisedBankDetails {
  scheme: BankAccountScheme
  country: string
  currency: CurrencyCode
  accountHolderName: string
  /** The full account number (the IBAN for `iban`). Secret: never log it, never return it. */
  accountNumber: string
  /** Sort code, ABA routing number, BSB, `transit-institution`, bank code; null for IBAN. Not secret. */
  routingNumber: string | null
  accountType: BankAccountType | null
  bankName: string | null
  last4: string
}

export type BankDetailsResult = { ok: true; normalised: NormalisedBankDetails } | { ok: false; errors: BankDetailsError[] }

/** ISO 13616 IBAN lengths for the supported countries that use IBAN. */
export const ibanLengths: Readonly<Record<string, number>> = {
  at: 20,
  be: 16,
  bg: 22,
  cy: 28,
  cz: 24,
  de: 22,
  dk: 18,
  ee: 20,
  es: 24,
  fi: 18,
  fr: 27,
  gr: 27,
  hr: 21,
  hu: 28,
  ie: 22,
  it: 27,
  lt: 20,
  lu: 20,
  lv: 21,
  mt: 31,
  nl: 18,
  pl: 28,
  pt: 25,
  ro: 24,
  se: 24,
  si: 19,
  sk: 24,
  ae: 23,
  ch: 21,
  gi: 23,
  li: 21,
  no: 15,
}

/** The payout currency when the request names none. */
export const defaultPayoutCurrency: Readonly<Record<string, CurrencyCode>> = {
  bg: 'bgn',
  cz: 'czk',
  dk: 'dkk',
  hu: 'huf',
  pl: 'pln',
  ro: 'ron',
  se: 'sek',
  ae: 'aed',
  au: 'aud',
  br: 'brl',
  ca: 'cad',
  ch: 'chf',
  gb: 'gbp',
  gi: 'gbp',
  hk: 'hkd',
  jp: 'jpy',
  li: 'chf',
  mx: 'mxn',
  my: 'myr',
  no: 'nok',
  nz: 'nzd',
  sg: 'sgd',
  th: 'thb',
  us: 'usd',
}

/**
 * Accounts in Europe settle in any of these (the card provider's list for
 * the EEA, the UK, Switzerland and Norway), beside their own currency.
 */
const europeanSettlementCurrencies: readonly CurrencyCode[] = [
  'eur',
  'gbp',
  'usd',
  'chf',
  'dkk',
  'nok',
  'sek',
  'pln',
  'czk',
  'huf',
  'ron',
  'bgn',
]

/** Elsewhere an account settles in its own currency, and a few also in US dollars. */
const extraSettlementCurrencies: Readonly<Record<string, readonly CurrencyCode[]>> = { ca: ['usd'] }

/**
 * The currencies a seller in `country` can be paid out in: the country's
 * own first, then the others its accounts settle in. Empty where we support
 * no currency the country's banks take.
 */
export function payoutCurrenciesFor(country: string): CurrencyCode[] {
  const code = country.toLowerCase()
  const own = defaultPayoutCurrency[code] ?? (isSepaCountry(code) ? 'eur' : undefined)
  const european = isEuropeanCountry(code) || code === 'li' || code === 'gi'
  const others = european ? europeanSettlementCurrencies : (extraSettlementCurrencies[code] ?? [])
  return [...new Set([...(own ? [own] : []), ...others])]
}

export function usesIban(country: string): boolean {
  return country in ibanLengths
}

/** The last four characters, for display ("•••• 3000"). */
export function last4(value: string): string {
  return value.slice(-4)
}

/** ISO 13616 / ISO 7064 mod 97-10: move the first four characters to the end, letters to 10..35, remainder must be 1. */
export function ibanChecksumValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  let remainder = 0
  for (const character of rearranged) {
    const code = character.charCodeAt(0)
    const digits = code >= 65 ? String(code - 55) : character
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97
  }
  return remainder === 1
}

/** ABA routing number checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function abaChecksumValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false
  const d = [...routing].map(Number)
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1]
  const sum = d.reduce((total, digit, index) => total + digit * (weights[index] ?? 0), 0)
  return sum % 10 === 0
}

const compact = (value: string | undefined): string => (value ?? '').replace(/\s+/g, '')
const digitsOnly = (value: string | undefined): string => compact(value).replace(/-/g, '')

/** The schemes that are only digits: gb's sort code and au's BSB, each with its account number's length. */
const digitSchemes = {
  gb: { bankCode: { field: 'sort_code', digits: 6, label: 'sort code' }, accountDigits: { min: 8, max: 8 } },
  au: { bankCode: { field: 'bsb', digits: 6, label: 'BSB' }, accountDigits: { min: 5, max: 9 } },
} as const satisfies Record<
  string,
  { bankCode: { field: BankDetailsField; digits: number; label: string }; accountDigits: { min: number; max: number } }
>

export function validateBankDetails(country: string, input: BankDetailsInput): BankDetailsResult {
  const errors: BankDetailsError[] = []
  const fail = (field: BankDetailsField, problem: BankDetailsProblem, message: string): void => {
    errors.push({ field, problem, message })
  }
  const code = country.toLowerCase()

  const holder = (input.account_holder_name ?? '').trim().replace(/\s+/g, ' ')
  if (!holder) fail('account_holder_name', 'required', 'Enter the account holder’s name')
  else if (holder.length > 200) fail('account_holder_name', 'invalid_length', 'At most 200 characters')

  let currency: CurrencyCode | undefined
  const requestedCurrency = input.currency?.trim().toLowerCase()
  if (requestedCurrency) {
    if (isSupportedCurrency(requestedCurrency) && payoutCurrenciesFor(code).includes(requestedCurrency)) currency = requestedCurrency
    else fail('currency', 'unsupported', 'Not a payout currency in this country')
  } else {
    currency = isSepaCountry(code) ? (defaultPayoutCurrency[code] ?? 'eur') : defaultPayoutCurrency[code]
    if (!currency) fail('currency', 'required', 'Choose the payout currency')
  }

  /** A required digit string of one of the given lengths. */
  const digitField = (field: BankDetailsField, value: string | undefined, min: number, max: number, label: string): string => {
    const cleaned = digitsOnly(value)
    if (!cleaned) fail(field, 'required', `Enter the ${label}`)
    else if (!/^\d+$/.test(cleaned)) fail(field, 'invalid_format', `The ${label} has digits only`)
    else if (cleaned.length < min || cleaned.length > max) {
      fail(field, 'invalid_length', min === max ? `The ${label} has ${min} digits` : `The ${label} has ${min} to ${max} digits`)
    }
    return cleaned
  }

  let scheme: BankAccountScheme
  let accountNumber = ''
  let routingNumber: string | null = null
  let accountType: BankAccountType | null = null
  let bankName: string | null = null

  if (usesIban(code)) {
    scheme = 'iban'
    const iban = compact(input.iban).toUpperCase()
    const expectedLength = ibanLengths[code] ?? 0
    if (!iban) fail('iban', 'required', 'Enter the IBAN')
    else if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) fail('iban', 'invalid_format', 'An IBAN starts with two letters and two check digits')
    else if (iban.slice(0, 2) !== code.toUpperCase())
      fail('iban', 'wrong_country', `The IBAN must be from the payout country (${code.toUpperCase()})`)
    else if (iban.length !== expectedLength) fail('iban', 'invalid_length', `A ${code.toUpperCase()} IBAN has ${expectedLength} characters`)
    else if (!ibanChecksumValid(iban)) fail('iban', 'invalid_checksum', 'The IBAN’s check digits do not match: check for typing mistakes')
    accountNumber = iban
  } else if (code === 'gb' || code === 'au') {
    // A bank code of fixed digits and an account number of so many digits, nothing else to check.
    const { bankCode, accountDigits } = digitSchemes[code]
    scheme = code
    routingNumber = digitField(bankCode.field, input[bankCode.field], bankCode.digits, bankCode.digits, bankCode.label)
    accountNumber = digitField('account_number', input.account_number, accountDigits.min, accountDigits.max, 'account number')
  } else if (code === 'us') {
    scheme = 'us'
    routingNumber = digitField('routing_number', input.routing_number, 9, 9, 'routing number')
    if (/^\d{9}$/.test(routingNumber) && !abaChecksumValid(routingNumber)) {
      fail('routing_number', 'invalid_checksum', 'Not a valid ABA routing number: check for typing mistakes')
    }
    accountNumber = digitField('account_number', input.account_number, 4, 17, 'account number')
    const type = input.account_type?.trim().toLowerCase()
    if (!type) fail('account_type', 'required', 'Choose checking or savings')
    else if (type !== 'checking' && type !== 'savings') fail('account_type', 'invalid_format', 'Either checking or savings')
    else accountType = type
  } else if (code === 'my') {
    scheme = 'my'
    const bankCode = compact(input.bank_code).toUpperCase()
    const bank = malaysianBanks.find((entry) => entry.routingNumber === bankCode)
    if (!bankCode) fail('bank_code', 'required', 'Choose the bank')
    else if (!bank) fail('bank_code', 'unknown_bank', 'Not a bank in the list')
    routingNumber = bankCode
    bankName = bank?.name ?? null
    accountNumber = digitField('account_number', input.account_number, 10, 16, 'account number')
  } else if (code === 'ca') {
    scheme = 'ca'
    const transit = digitField('transit_number', input.transit_number, 5, 5, 'transit number')
    const institution = digitField('institution_number', input.institution_number, 3, 3, 'institution number')
    routingNumber = `${transit}-${institution}`
    accountNumber = digitField('account_number', input.account_number, 7, 12, 'account number')
  } else {
    scheme = 'generic'
    const bankCode = compact(input.bank_code).replace(/-/g, '').toUpperCase()
    if (!bankCode) fail('bank_code', 'required', 'Enter the bank code')
    else if (!/^[A-Z0-9]{2,15}$/.test(bankCode)) fail('bank_code', 'invalid_format', 'The bank code has 2 to 15 letters or digits')
    routingNumber = bankCode
    accountNumber = compact(input.account_number).replace(/-/g, '').toUpperCase()
    if (!accountNumber) fail('account_number', 'required', 'Enter the account number')
    else if (!/^[A-Z0-9]{4,34}$/.test(accountNumber))
      fail('account_number', 'invalid_format', 'The account number has 4 to 34 letters or digits')
  }

  if (errors.length > 0 || !currency) return { ok: false, errors }
  return {
    ok: true,
    normalised: {
      scheme,
      country: code,
      currency,
      accountHolderName: holder,
      accountNumber,
      routingNumber,
      accountType,
      bankName,
      last4: last4(accountNumber),
    },
  }
}

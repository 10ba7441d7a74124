/**
 * Currencies (DESIGN §2, spec §3 "Currency info", §5). Amounts everywhere are
 * integers in the currency's minor unit; this module is the only place that
 * knows how many minor units make a major one, and it converts with strings so
 * no amount ever passes through a float.
 */

export interface CurrencyInfo {
  /** Lower-case ISO 4217, like every currency code in the API. */
  readonly code: string
  readonly symbol: string
  readonly symbol_native: string
  readonly name: string
  readonly name_plural: string
  /** ISO 4217 minor-unit exponent: 2 for cents, 0 for yen. */
  readonly decimal_digits: number
  /**
   * Cash rounding increment in major units (0.05 for CHF), shown to clients as
   * the spec's currency info has it. Display metadata only: no amount is ever
   * computed with it.
   */
  readonly rounding: number
}

// Symbols and names follow the widely used "common currency" table the anchor
// product's currency info mirrors; decimal digits follow ISO 4217 (HUF has 2
// there even though forint coins no longer have fillér).
const table = {
  eur: { symbol: '€', symbol_native: '€', name: 'Euro', name_plural: 'euros', decimal_digits: 2, rounding: 0 },
  usd: { symbol: '$', symbol_native: '$', name: 'US Dollar', name_plural: 'US dollars', decimal_digits: 2, rounding: 0 },
  gbp: {
    symbol: '£',
    symbol_native: '£',
    name: 'British Pound Sterling',
    name_plural: 'British pounds sterling',
    decimal_digits: 2,
    rounding: 0,
  },
  pln: { symbol: 'zł', symbol_native: 'zł', name: 'Polish Zloty', name_plural: 'Polish zlotys', decimal_digits: 2, rounding: 0 },
  sek: { symbol: 'Skr', symbol_native: 'kr', name: 'Swedish Krona', name_plural: 'Swedish kronor', decimal_digits: 2, rounding: 0 },
  myr: { symbol: 'RM', symbol_native: 'RM', name: 'Malaysian Ringgit', name_plural: 'Malaysian ringgits', decimal_digits: 2, rounding: 0 },
  aud: { symbol: 'AU$', symbol_native: '$', name: 'Australian Dollar', name_plural: 'Australian dollars', decimal_digits: 2, rounding: 0 },
  jpy: { symbol: '¥', symbol_native: '￥', name: 'Japanese Yen', name_plural: 'Japanese yen', decimal_digits: 0, rounding: 0 },
  aed: {
    symbol: 'AED',
    symbol_native: 'د.إ.‏',
    name: 'United Arab Emirates Dirham',
    name_plural: 'UAE dirhams',
    decimal_digits: 2,
    rounding: 0,
  },
  chf: { symbol: 'CHF', symbol_native: 'CHF', name: 'Swiss Franc', name_plural: 'Swiss francs', decimal_digits: 2, rounding: 0.05 },
  czk: {
    symbol: 'Kč',
    symbol_native: 'Kč',
    name: 'Czech Republic Koruna',
    name_plural: 'Czech Republic korunas',
    decimal_digits: 2,
    rounding: 0,
  },
  dkk: { symbol: 'Dkr', symbol_native: 'kr', name: 'Danish Krone', name_plural: 'Danish kroner', decimal_digits: 2, rounding: 0 },
  huf: { symbol: 'Ft', symbol_native: 'Ft', name: 'Hungarian Forint', name_plural: 'Hungarian forints', decimal_digits: 2, rounding: 0 },
  nok: { symbol: 'Nkr', symbol_native: 'kr', name: 'Norwegian Krone', name_plural: 'Norwegian kroner', decimal_digits: 2, rounding: 0 },
  ron: { symbol: 'RON', symbol_native: 'RON', name: 'Romanian Leu', name_plural: 'Romanian lei', decimal_digits: 2, rounding: 0 },
  bgn: { symbol: 'BGN', symbol_native: 'лв.', name: 'Bulgarian Lev', name_plural: 'Bulgarian leva', decimal_digits: 2, rounding: 0 },
  cad: { symbol: 'CA$', symbol_native: '$', name: 'Canadian Dollar', name_plural: 'Canadian dollars', decimal_digits: 2, rounding: 0 },
  nzd: {
    symbol: 'NZ$',
    symbol_native: '$',
    name: 'New Zealand Dollar',
    name_plural: 'New Zealand dollars',
    decimal_digits: 2,
    rounding: 0,
  },
  sgd: { symbol: 'S$', symbol_native: '$', name: 'Singapore Dollar', name_plural: 'Singapore dollars', decimal_digits: 2, rounding: 0 },
  hkd: { symbol: 'HK$', symbol_native: '$', name: 'Hong Kong Dollar', name_plural: 'Hong Kong dollars', decimal_digits: 2, rounding: 0 },
  mxn: { symbol: 'MX$', symbol_native: '$', name: 'Mexican Peso', name_plural: 'Mexican pesos', decimal_digits: 2, rounding: 0 },
  brl: { symbol: 'R$', symbol_native: 'R$', name: 'Brazilian Real', name_plural: 'Brazilian reals', decimal_digits: 2, rounding: 0 },
  thb: { symbol: '฿', symbol_native: '฿', name: 'Thai Baht', name_plural: 'Thai baht', decimal_digits: 2, rounding: 0 },
} as const satisfies Record<string, Omit<CurrencyInfo, 'code'>>

export type CurrencyCode = keyof typeof table

/** Every currency the server supports, in table order. */
export const supportedCurrencies = Object.keys(table) as CurrencyCode[]

export const currencies: Readonly<Record<CurrencyCode, CurrencyInfo>> = Object.fromEntries(
  supportedCurrencies.map((code) => [code, { code, ...table[code] }]),
) as Record<CurrencyCode, CurrencyInfo>

/** Spec §5: what ordinary users may choose. */
export const enabledCurrencies = ['eur', 'usd', 'gbp', 'pln', 'sek', 'myr', 'aud'] as const satisfies readonly CurrencyCode[]

/** DESIGN §2: partner-domain users "also get myr" on top of the enabled list. */
const partnerExtraCurrencies = ['myr'] as const satisfies readonly CurrencyCode[]

export function isSupportedCurrency(value: unknown): value is CurrencyCode {
  return typeof value === 'string' && Object.hasOwn(table, value)
}

export function currencyInfo(currency: CurrencyCode): CurrencyInfo {
  return currencies[currency]
}

export interface UserDomains {
  /**
   * The user's e-mail. The caller passes it only once verified: an unverified
   * address would let anyone claim the company's wider currency set.
   */
  readonly email: string
  /** COMPANY_EMAIL_DOMAIN; unset means nobody is a company user. */
  readonly companyDomain?: string | undefined
  /** PARTNER_EMAIL_DOMAINS. */
  readonly partnerDomains: readonly string[]
}

/** The domain part of an address, lower-cased; '' when there is none. */
function emailDomain(email: string): string {
  const at = email.lastIndexOf('@')
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase()
}

// Exact match on purpose: a subdomain or look-alike (`evil-pactum.com`,
// `pactum.com.evil`) must never inherit the company's privileges.
function isInDomain(email: string, domain: string | undefined): boolean {
  if (!domain) return false
  const own = emailDomain(email)
  return own !== '' && own === domain.trim().toLowerCase()
}

export type UserClass = 'company' | 'partner' | 'ordinary'

export function classifyUser(user: UserDomains): UserClass {
  if (isInDomain(user.email, user.companyDomain)) return 'company'
  if (user.partnerDomains.some((domain) => isInDomain(user.email, domain))) return 'partner'
  return 'ordinary'
}

/**
 * The currencies a user may create transactions in. `supported` is what this
 * server supports (defaults to the whole table); every list is intersected with
 * it so configuration can only narrow, never invent, currencies.
 */
export function currenciesForUser(user: UserDomains, supported: readonly CurrencyCode[] = supportedCurrencies): CurrencyCode[] {
  const userClass = classifyUser(user)
  if (userClass === 'company') return [...supported]
  const allowed: readonly CurrencyCode[] = userClass === 'partner' ? [...enabledCurrencies, ...partnerExtraCurrencies] : enabledCurrencies
  return supported.filter((code) => allowed.includes(code))
}

export const paymentMethods = ['card', 'p24', 'sepa'] as const
export type PaymentMethod = (typeof paymentMethods)[number]

/** Spec §6: SEPA disabled, P24 enabled by default config. */
export const defaultEnabledPaymentMethods = ['card', 'p24'] as const satisfies readonly PaymentMethod[]

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === 'string' && (paymentMethods as readonly string[]).includes(value)
}

/**
 * The currencies each payment method takes, as the payment provider's
 * documentation gives them: Przelewy24 is paid in EUR or PLN, a SEPA
 * Direct Debit in EUR only, cards in any currency. Stripe does not refuse
 * a pair outside these: it drops the method from the intent, which then
 * cannot be paid. One table for what the API quotes, what the sandbox
 * accepts and what the Stripe adapter sends.
 */
const methodCurrencies: Readonly<Record<PaymentMethod, readonly CurrencyCode[] | 'any'>> = {
  card: 'any',
  p24: ['eur', 'pln'],
  sepa: ['eur'],
}

export function methodTakesCurrency(method: PaymentMethod, currency: string): boolean {
  const taken = methodCurrencies[method]
  return taken === 'any' ? isSupportedCurrency(currency) : (taken as readonly string[]).includes(currency)
}

/** Company users get every method; everyone else the configured ones. */
export function paymentMethodsForUser(
  user: UserDomains,
  enabled: readonly PaymentMethod[] = defaultEnabledPaymentMethods,
): PaymentMethod[] {
  if (classifyUser(user) === 'company') return [...paymentMethods]
  return paymentMethods.filter((method) => enabled.includes(method))
}

/** `1234, eur` → `'12.34'`; `-5, eur` → `'-0.05'`; `1234, jpy` → `'1234'`. */
export function minorUnitsToDecimalString(amount: number, currency: CurrencyCode): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`amount must be a safe integer, got ${amount}`)
  const digits = currencies[currency].decimal_digits
  const sign = amount < 0 ? '-' : ''
  const magnitude = String(Math.abs(amount))
  if (digits === 0) return sign + magnitude
  const padded = magnitude.padStart(digits + 1, '0')
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`
}

export type ParseAmountProblem = 'invalid_format' | 'too_many_decimals' | 'too_large'

export type ParseAmountResult = { ok: true; amount: number } | { ok: false; problem: ParseAmountProblem }

// One optional sign, digits, and at most one decimal separator. No grouping
// separators: "1,234" is refused rather than guessed at, since a wrong guess
// moves a price by a factor of a thousand.
const decimalPattern = /^([+-]?)(\d*)(?:[.,](\d*))?$/

/**
 * Reads a user-typed amount ("12.34", "12,5", "7") into minor units without
 * float arithmetic. Accepts `.` or `,` as the decimal separator; refuses more
 * decimals than the currency has (never rounds a price the user typed).
 */
export function parseDecimalToMinorUnits(text: string, currency: CurrencyCode): ParseAmountResult {
  const match = decimalPattern.exec(text.trim())
  if (!match) return { ok: false, problem: 'invalid_format' }
  const [, sign = '', whole = '', fraction = ''] = match
  if (whole === '' && fraction === '') return { ok: false, problem: 'invalid_format' }
  const digits = currencies[currency].decimal_digits
  // Trailing zeros carry no value: "5.000" is a valid EUR amount.
  const significantFraction = fraction.replace(/0+$/, '')
  if (significantFraction.length > digits) return { ok: false, problem: 'too_many_decimals' }
  const minorDigits = (whole + significantFraction.padEnd(digits, '0')).replace(/^0+(?=\d)/, '')
  // Compare as digit strings before converting, so nothing is ever rounded.
  const max = String(Number.MAX_SAFE_INTEGER)
  if (minorDigits.length > max.length || (minorDigits.length === max.length && minorDigits > max)) {
    return { ok: false, problem: 'too_large' }
  }
  const magnitude = Number(minorDigits)
  return { ok: true, amount: sign === '-' && magnitude !== 0 ? -magnitude : magnitude }
}

/**
 * Localised display, e.g. `formatMoney(1234, 'eur', 'fi-FI')` → "12,34 €".
 * The decimal string is handed to Intl as a string (exact decimal) so large
 * amounts are not rounded by a float conversion.
 */
export function formatMoney(amount: number, currency: CurrencyCode, languageTag: string): string {
  return moneyFormatter(currency, languageTag).format(minorUnitsToDecimalString(amount, currency) as `${number}`)
}

/**
 * One formatter per language and currency: building an Intl.NumberFormat
 * costs far more than formatting with it (3 % of the server's CPU while
 * releases drained and their e-mails and receipts were written). Callers
 * pass our own locales' tags, a few hundred pairs at most; the bound only
 * keeps a caller that passed anything else from growing the map for ever.
 */
const moneyFormatters = new Map<string, Intl.NumberFormat>()
function moneyFormatter(currency: CurrencyCode, languageTag: string): Intl.NumberFormat {
  const key = `${languageTag} ${currency}`
  let formatter = moneyFormatters.get(key)
  if (!formatter) {
    const digits = currencies[currency].decimal_digits
    formatter = new Intl.NumberFormat(languageTag, {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    })
    if (moneyFormatters.size >= 1000) moneyFormatters.clear()
    moneyFormatters.set(key, formatter)
  }
  return formatter
}

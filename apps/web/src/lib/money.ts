import { type Locale, toLanguageTag } from '@pactum/domain/locales'

/**
 * Money on the screen (DESIGN §2): amounts travel as integers in the currency's
 * minor unit and are turned into text, and back, with string maths only, so a
 * price never passes through a float.
 */

/** Decimal digits of the currencies the app can meet; anything else has 2. */
const decimalDigits: Record<string, number> = { jpy: 0, krw: 0, huf: 2, bhd: 3, kwd: 3 }

/** Currencies offered to ordinary users (spec §5), used when the server cannot tell us. */
export const fallbackCurrencies = ['eur', 'usd', 'gbp', 'pln', 'sek', 'myr', 'aud'] as const

export function currencyDecimals(currency: string): number {
  return decimalDigits[currency.toLowerCase()] ?? 2
}

/** `1234, 'eur', 'pl_pl'` → `12,34 €`. */
export function formatMoney(minor: number, currency: string, locale: Locale): string {
  const decimals = currencyDecimals(currency)
  return new Intl.NumberFormat(toLanguageTag(locale), {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(minorToMajorNumberForDisplay(minor, decimals))
}

// Intl needs a number; minor units below 2^53 with at most 3 decimals round-trip exactly.
function minorToMajorNumberForDisplay(minor: number, decimals: number): number {
  return Number(minorToMajorString(minor, decimals))
}

/** `1234, 2` → `"12.34"`; `-5, 2` → `"-0.05"`; `500, 0` → `"500"`. */
export function minorToMajorString(minor: number, decimals: number): string {
  const negative = minor < 0
  const digits = String(Math.abs(Math.trunc(minor))).padStart(decimals + 1, '0')
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals)
  const fraction = decimals === 0 ? '' : `.${digits.slice(-decimals)}`
  return `${negative ? '-' : ''}${whole}${fraction}`
}

export interface MoneyMask {
  decimals: number
  decimalSeparator: string
  /** '' when the locale groups with a space (spaces are always ignored on input). */
  groupSeparator: string
  symbol: string
  symbolPosition: 'prefix' | 'suffix'
  inputMode: 'decimal' | 'numeric'
}

/**
 * How a price is typed in this locale. Two special masks come from spec §5:
 * PLN under pl_pl is written `1 234,56 zł` (the symbol after the amount, space
 * groups), and JPY takes whole yen only (no decimal separator at all).
 */
export function moneyMask(currency: string, locale: Locale): MoneyMask {
  const code = currency.toUpperCase()
  const parts = new Intl.NumberFormat(toLanguageTag(locale), { style: 'currency', currency: code }).formatToParts(12345.6)
  const decimalSeparator = parts.find((part) => part.type === 'decimal')?.value ?? '.'
  const rawGroup = parts.find((part) => part.type === 'group')?.value ?? ''
  const symbol = parts.find((part) => part.type === 'currency')?.value ?? code
  const symbolIndex = parts.findIndex((part) => part.type === 'currency')
  const firstNumber = parts.findIndex((part) => part.type === 'integer')
  const mask: MoneyMask = {
    decimals: currencyDecimals(currency),
    decimalSeparator,
    groupSeparator: /\s/.test(rawGroup) ? '' : rawGroup,
    symbol,
    symbolPosition: symbolIndex > firstNumber ? 'suffix' : 'prefix',
    inputMode: 'decimal',
  }
  if (code === 'PLN' && locale === 'pl_pl') {
    return { ...mask, decimalSeparator: ',', groupSeparator: '', symbol: 'zł', symbolPosition: 'suffix' }
  }
  if (code === 'JPY') return { ...mask, decimals: 0, inputMode: 'numeric' }
  return mask
}

export type MoneyParseResult = { ok: true; minor: number } | { ok: false; reason: 'empty' | 'invalid' | 'tooManyDecimals' | 'tooLarge' }

/**
 * Reads what a person typed into a price field. The locale's decimal separator
 * is the decimal separator; the other of `.`/`,` is accepted as one too when the
 * locale does not group with it (a Finn typing `12.50` means 12,50). Group
 * separators are accepted only where they belong (`1,234.50` in English,
 * `1.234,50` in Italian); spaces are ignored.
 */
export function parseMoneyInput(text: string, currency: string, locale: Locale): MoneyParseResult {
  const mask = moneyMask(currency, locale)
  const compact = text.replace(/[\s\u00a0\u202f'’]/g, '')
  if (compact === '') return { ok: false, reason: 'empty' }
  if (!/^[\d.,]+$/.test(compact)) return { ok: false, reason: 'invalid' }

  const group = mask.groupSeparator
  const otherSeparator = mask.decimalSeparator === ',' ? '.' : ','
  const decimalChars = [mask.decimalSeparator, ...(otherSeparator === group ? [] : [otherSeparator])]
  let decimalAt = -1
  for (const char of decimalChars) {
    const index = compact.lastIndexOf(char)
    if (index >= 0) {
      decimalAt = index
      break
    }
  }
  const wholeText = decimalAt >= 0 ? compact.slice(0, decimalAt) : compact
  const fraction = decimalAt >= 0 ? compact.slice(decimalAt + 1) : ''

  let whole: string
  if (/^\d*$/.test(wholeText)) whole = wholeText
  else if (group && new RegExp(`^\\d{1,3}(${escapeRegExp(group)}\\d{3})+$`).test(wholeText)) whole = wholeText.split(group).join('')
  else return { ok: false, reason: 'invalid' }
  if (!/^\d*$/.test(fraction)) return { ok: false, reason: 'invalid' }
  if (whole === '' && fraction === '') return { ok: false, reason: 'invalid' }
  if (fraction.length > mask.decimals) return { ok: false, reason: 'tooManyDecimals' }

  const minor = BigInt(`${whole || '0'}${fraction.padEnd(mask.decimals, '0')}`)
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, reason: 'tooLarge' }
  return { ok: true, minor: Number(minor) }
}

/** Minor units as the text a price field shows: `123456, 'eur', 'pl_pl'` → `1 234,56`. */
export function formatMoneyInput(minor: number, currency: string, locale: Locale): string {
  const mask = moneyMask(currency, locale)
  const [whole = '0', fraction] = minorToMajorString(minor, mask.decimals).split('.')
  const groupWith = mask.groupSeparator || '\u00a0'
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, groupWith)
  return fraction === undefined ? grouped : `${grouped}${mask.decimalSeparator}${fraction}`
}

/**
 * A price from a link (`?price=12.34`, always a dot, major units) in minor units;
 * null when it has more decimals than the currency allows.
 */
export function majorTextToMinor(text: string, currency: string): number | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim())
  if (!match) return null
  const decimals = currencyDecimals(currency)
  const fraction = match[2] ?? ''
  if (fraction.length > decimals) return null
  const minor = BigInt(`${match[1]}${fraction.padEnd(decimals, '0')}`)
  return minor > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(minor)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** A currency's name in the interface language (`EUR – Euro`'s second half); the code where Intl has none. */
export function currencyDisplayName(code: string, locale: Locale): string {
  try {
    return new Intl.DisplayNames(toLanguageTag(locale), { type: 'currency' }).of(code.toUpperCase()) ?? code.toUpperCase()
  } catch {
    return code.toUpperCase()
  }
}

/**
 * The price field's text after its currency changes from `from` to `to`:
 * the same amount, written as the new currency writes it, when both have
 * the same number of decimals; unchanged otherwise (12.50 is not ¥12.50, and
 * the person retypes it) or when the text is no amount yet.
 */
export function priceTextInCurrency(text: string, from: string, to: string, locale: Locale): string {
  if (currencyDecimals(from) !== currencyDecimals(to)) return text
  const before = parseMoneyInput(text, from, locale)
  return before.ok ? formatMoneyInput(before.minor, to, locale) : text
}

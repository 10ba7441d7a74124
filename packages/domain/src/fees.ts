import { type CurrencyCode, isPaymentMethod, isSupportedCurrency, methodTakesCurrency, type PaymentMethod } from './currencies.ts'

/**
 * The buyer protection fee (DESIGN §2 "Fees"). The schedule is versioned: a
 * transaction records the version it was priced with, and a client that shows
 * a charge sends the version back, so a schedule change can never make a user
 * pay an amount they were not shown.
 */
export const chargeCalculatorVersion = 1

/**
 * A schedule version as the API carries it: a positive integer, as in the
 * anchor product's API. (Version 1 was stored as the text `2026-11-1` before
 * the column became an integer; migration 0021 maps it.)
 */
export function isChargeCalculatorVersion(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1
}

/** Minor units; below this a price is refused with `price_too_low`. */
export const minimumPrice = 100

/** Percent of the price, rounded up to the next minor unit. */
const percentByMethod: Readonly<Record<PaymentMethod, number>> = { card: 3, p24: 3, sepa: 1 }

/** Minor units added to every charge. */
export const fixedFeeByCurrency: Readonly<Partial<Record<CurrencyCode, number>>> = {
  eur: 40,
  gbp: 40,
  usd: 40,
  aud: 60,
  pln: 170,
  sek: 450,
  myr: 190,
  jpy: 60,
}

// The schedule names no fixed fee for the currencies only company users can
// pick; 40 minor units keeps them priced like eur until finance decides.
const defaultFixedFee = 40

export function fixedFee(currency: CurrencyCode): number {
  return fixedFeeByCurrency[currency] ?? defaultFixedFee
}

/** ceil(price × percent / 100) in integers: (p·r + 99) div 100 for p ≥ 0. */
function ceilPercent(price: number, percent: number): number {
  return Math.floor((price * percent + 99) / 100)
}

// Keeps price·percent and price + charge exact in a double; far above any
// sale this product is for (9 × 10^13 minor units).
export const largestPricedAmount = Math.floor(Number.MAX_SAFE_INTEGER / 100)

export interface ChargeQuote {
  readonly price: number
  readonly currency: CurrencyCode
  readonly paymentMethod: PaymentMethod
  /** What the buyer pays on top of the price. */
  readonly charge: number
  /** What is withheld from the seller's payout; 0 in the default schedule. */
  readonly chargeSeller: number
  /** What a partner client adds for the buyer and withholds from the seller; no partner fee exists yet, so 0. */
  readonly chargeBuyerClient: number
  readonly chargeSellerClient: number
  readonly chargeCalculatorVersion: number
}

export type QuoteRefusal =
  | 'validation_failed'
  | 'price_too_high'
  | 'negative_price'
  | 'price_too_low'
  | 'unsupported_currency'
  | 'invalid_payment_method'
  | 'unsupported_combination'

export type QuoteResult = { ok: true; quote: ChargeQuote } | { ok: false; code: QuoteRefusal }

/**
 * Prices a sale. Takes `unknown`-ish strings for currency and method because
 * the input comes straight from a query string; the refusal codes are the API's.
 */
export function quoteCharge(input: { price: number; currency: string; paymentMethod: string }): QuoteResult {
  const { price, currency, paymentMethod } = input
  if (!Number.isSafeInteger(price) && !(Number.isInteger(price) && price > 0)) return { ok: false, code: 'validation_failed' }
  if (price > largestPricedAmount) return { ok: false, code: 'price_too_high' }
  if (price < 0) return { ok: false, code: 'negative_price' }
  if (price < minimumPrice) return { ok: false, code: 'price_too_low' }
  if (!isSupportedCurrency(currency)) return { ok: false, code: 'unsupported_currency' }
  if (!isPaymentMethod(paymentMethod)) return { ok: false, code: 'invalid_payment_method' }
  // A method the currency cannot be paid with is never quoted, so no sale is made that cannot be paid.
  if (!methodTakesCurrency(paymentMethod, currency)) return { ok: false, code: 'unsupported_combination' }
  const charge = ceilPercent(price, percentByMethod[paymentMethod]) + fixedFee(currency)
  return {
    ok: true,
    quote: {
      price,
      currency,
      paymentMethod,
      charge,
      chargeSeller: 0,
      chargeBuyerClient: 0,
      chargeSellerClient: 0,
      chargeCalculatorVersion,
    },
  }
}

export type ShownChargeResult = { ok: true } | { ok: false; code: 'incorrect_charge' | 'incorrect_calc_version' }

/**
 * Compares what the client says the user saw with the server's own quote. The
 * version is checked first: a stale schedule explains a wrong charge, and the
 * client should re-fetch the quote rather than retry.
 */
export function checkShownCharge(input: { quote: ChargeQuote; shownCharge: number; shownVersion: number }): ShownChargeResult {
  if (input.shownVersion !== input.quote.chargeCalculatorVersion) return { ok: false, code: 'incorrect_calc_version' }
  if (input.shownCharge !== input.quote.charge) return { ok: false, code: 'incorrect_charge' }
  return { ok: true }
}

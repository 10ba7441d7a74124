import type { PaymentMethod } from '@pactum/domain/currencies'
import { type ChargeQuote, checkShownCharge, largestPricedAmount, minimumPrice, type QuoteRefusal, quoteCharge } from '@pactum/domain/fees'
import type { Config } from '../../config.ts'
import { AppError } from '../../errors.ts'
import type { CurrentUser } from '../sign-in/users.ts'
import { userOffer } from './user-offer.ts'

const quoteMessages: Record<QuoteRefusal, string> = {
  validation_failed: 'The price must be a whole number of minor units',
  price_too_low: 'The price is below the minimum of 100 minor units',
  price_too_high: `The price is above the maximum of ${largestPricedAmount} minor units`,
  negative_price: 'The price cannot be negative',
  unsupported_currency: 'This currency is not supported',
  invalid_payment_method: 'This payment method is not supported',
  unsupported_combination: 'This payment method does not take this currency',
}

/** A fee quote, or the documented refusal naming the field at fault (`priceField` as the request calls the price). */
export function quoteOrRefuse(input: { price: number; currency: string; paymentMethod: string }, priceField = 'price'): ChargeQuote {
  const result = quoteCharge(input)
  if (!result.ok) {
    const field =
      result.code === 'unsupported_currency'
        ? 'currency'
        : result.code === 'invalid_payment_method' || result.code === 'unsupported_combination'
          ? 'payment_method'
          : priceField
    const limit =
      result.code === 'price_too_high' ? { maximum: largestPricedAmount } : result.code === 'price_too_low' ? { minimum: minimumPrice } : {}
    throw new AppError(result.code, quoteMessages[result.code], { details: { field, ...limit } })
  }
  return result.quote
}

/** The user must have been shown exactly what they will pay (DESIGN §2). */
export function requireShownCharge(quote: ChargeQuote, shown: { charge: number; version: number }): void {
  const check = checkShownCharge({ quote, shownCharge: shown.charge, shownVersion: shown.version })
  if (!check.ok) {
    throw new AppError(
      check.code,
      check.code === 'incorrect_charge'
        ? 'The fee has changed; show the new fee and try again'
        : 'The fee schedule has changed; ask for a new quote',
      { details: { charge: quote.charge, charge_calculator_version: quote.chargeCalculatorVersion } },
    )
  }
}

/** The currency (and a method the user chose) must be open to this user (DESIGN §2). */
export function requireOffered(
  config: Config,
  user: CurrentUser,
  quote: ChargeQuote,
  options: { paymentMethodChosen: boolean; currencyChosen?: boolean },
): void {
  const offer = userOffer(config, user)
  if ((options.currencyChosen ?? true) && !offer.currencies.includes(quote.currency)) {
    throw new AppError('unsupported_currency', 'This currency is not available to you', { details: { field: 'currency' } })
  }
  if (options.paymentMethodChosen) requireMethodAllowed(config, user, quote.paymentMethod)
}

/**
 * The payer (or the creator choosing for them) may only use the methods
 * DESIGN §2 opens to them: checked on create, update, set_payment_method and
 * pay alike, so that no path lets an ordinary user pay by SEPA.
 */
export function requireMethodAllowed(config: Config, user: CurrentUser, paymentMethod: PaymentMethod): void {
  if (!userOffer(config, user).paymentMethods.includes(paymentMethod)) {
    throw new AppError('payment_method_not_allowed', 'This payment method is not available to you', {
      details: { field: 'payment_method' },
    })
  }
}

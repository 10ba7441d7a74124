import type { FieldError } from 'react-hook-form'
import { useTranslation } from '../../i18n/react.tsx'
import { useLocale } from '../../i18n/use-locale.ts'
import { currencyDecimals, formatMoney } from '../money.ts'
import type { PriceError } from './read-price.ts'

/** The translation key for each `PriceError`; `wholeUnits` replaces `decimals` for a currency without decimals, where a form has it. */
export interface PriceMessages {
  readonly required: string
  readonly invalid: string
  readonly decimals: string
  readonly wholeUnits?: string
  readonly tooLarge: string
  readonly tooLow: string
}

/** An online price (the create form, the edit dialog). */
export const priceMessages: PriceMessages = {
  required: 'createTransaction.errors.priceRequired',
  invalid: 'createTransaction.errors.priceInvalid',
  decimals: 'createTransaction.errors.priceDecimals',
  wholeUnits: 'createTransaction.errors.priceWholeUnits',
  tooLarge: 'createTransaction.errors.priceTooLarge',
  tooLow: 'createTransaction.errors.priceTooLow',
}

/** A face-to-face deposit. */
export const depositMessages: PriceMessages = {
  ...priceMessages,
  required: 'createTransaction.face.errors.depositRequired',
  invalid: 'createTransaction.face.errors.depositInvalid',
  tooLow: 'createTransaction.face.errors.depositTooLow',
}

/** A face-to-face total, set by the seller: too low means too little is left after the deposit. */
export const totalMessages: PriceMessages = {
  ...priceMessages,
  required: 'transactionStatus.setPrice.errors.required',
  tooLow: 'transactionStatus.setPrice.errors.remainderTooLow',
}

/** A listing's price or deposit (its texts have no sentence for too large an amount). */
export const listingPriceMessages: PriceMessages = {
  required: 'listings.form.errors.priceRequired',
  invalid: 'listings.form.errors.priceInvalid',
  decimals: 'listings.form.errors.priceDecimals',
  tooLarge: 'listings.form.errors.priceInvalid',
  tooLow: 'listings.form.errors.priceTooLow',
}

/**
 * The sentence under a price field: the form's own refusal (a `PriceError`
 * as the message of a `custom` error), or the server's, already translated.
 */
export function usePriceErrorText(messages: PriceMessages) {
  const { t } = useTranslation()
  const { locale } = useLocale()
  return (error: FieldError | undefined, currency: string, minimum: number): string | undefined => {
    if (!error) return undefined
    if (error.type !== 'custom') return error.message
    switch (error.message as PriceError) {
      case 'required':
        return t(messages.required)
      case 'decimals': {
        const count = currencyDecimals(currency)
        return count === 0 && messages.wholeUnits ? t(messages.wholeUnits) : t(messages.decimals, { count })
      }
      case 'tooLarge':
        return t(messages.tooLarge)
      case 'tooLow':
        return t(messages.tooLow, { amount: formatMoney(minimum, currency, locale) })
      default:
        return t(messages.invalid)
    }
  }
}

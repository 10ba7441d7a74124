import type { ChargeQuote as QuoteBody } from '@pactum/contracts/transactions'
import type { ChargeQuote } from '@pactum/domain/fees'

/** A fee quote as the API shows it (DESIGN §5 pinned shape). */
export function toQuoteView(quote: ChargeQuote): QuoteBody {
  return {
    price: quote.price,
    currency: quote.currency,
    payment_method: quote.paymentMethod,
    charge: quote.charge,
    charge_seller: quote.chargeSeller,
    charge_buyer_client: quote.chargeBuyerClient,
    charge_seller_client: quote.chargeSellerClient,
    charge_calculator_version: quote.chargeCalculatorVersion,
  }
}

import type { ApiRequest } from '../lib/api/api-client.ts'

/** A GET …/charge route: quotes `charge` for whatever price and currency were asked, paid by card. */
export function chargeQuoteRoute(charge: number) {
  return ({ query }: ApiRequest) => ({
    price: Number(query?.price),
    currency: query?.currency,
    payment_method: 'card',
    charge,
    charge_seller: 0,
    charge_calculator_version: 1,
  })
}

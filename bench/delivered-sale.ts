import type { FastifyInstance } from 'fastify'
import { benchQuoteUrl, benchSaleBody } from './bench-client.ts'

/**
 * One online card sale through the API, as the web app makes it, up to
 * `delivered` (the buyer confirmed delivery): the starting point of the
 * benchmarks that copy it. Returns the transaction's id.
 */
export async function deliveredSale(app: FastifyInstance, tokens: { seller: string; buyer: string }): Promise<string> {
  const call = async (who: 'seller' | 'buyer' | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await app.inject({
      method,
      url,
      headers: who ? { authorization: `Bearer ${tokens[who]}` } : {},
      ...(payload ? { payload } : {}),
    })
    if (response.statusCode >= 300) throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`)
    return response.json()
  }
  const quote = await call('seller', 'GET', benchQuoteUrl)
  const created = await call('seller', 'POST', '/api/v1/me/transactions', benchSaleBody(quote))
  await call('buyer', 'PUT', `/api/v1/transactions?join_code=${created.join_code}`)
  const payment = await call('buyer', 'POST', `/api/v1/transactions/${created.id}/pay`)
  await call(null, 'POST', `/sandbox/v1/payment_intents/${payment.payment_intent_id}/confirm`, {
    client_secret: payment.client_secret,
    card_number: '4242424242424242',
  })
  await call('buyer', 'POST', `/api/v1/transactions/${created.id}/confirm_payment`, { payment_intent_id: payment.payment_intent_id })
  await call('seller', 'POST', `/api/v1/transactions/${created.id}/track`, {
    carrier: 'dhl',
    tracking_code: `BENCH${String(created.id).replaceAll('-', '').slice(-16).toUpperCase()}`,
  })
  const delivered = await call('buyer', 'POST', `/api/v1/transactions/${created.id}/confirm_delivery`)
  if (delivered.status !== 'delivered') throw new Error(`the benchmark sale is ${delivered.status}, not delivered`)
  return created.id as string
}

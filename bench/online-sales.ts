import { type Kysely, sql } from 'kysely'
import type { Database } from '../apps/server/src/db/schema.ts'

/**
 * Whole online card sales per second: the seller lists, the buyer joins,
 * pays on the sandbox provider's page, the seller tracks, the buyer confirms
 * delivery, and the complaint-window timer releases the funds (the server
 * runs with a short COMPLAINT_PERIOD_SECONDS). `workers` sales are driven
 * through the API side by side for `seconds`; the figure is the sales listed
 * in that time divided by the time until the last of them was released.
 */

export interface SaleParties {
  seller: string
  /** A buyer of its own per sale: join look-ups are rate-limited per user. */
  buyer(): Promise<string>
}

export interface SalesResult {
  sales: number
  perSecond: number
  /** Median time from listing to delivered (the API part of a sale). */
  apiSecondsMedian: number
  failed: number
  firstFailure?: string
}

export async function runOnlineSales(o: {
  baseUrl: string
  db: Kysely<Database>
  parties: SaleParties
  quote: { charge: unknown; charge_calculator_version: unknown }
  workers: number
  seconds: number
}): Promise<SalesResult> {
  const call = async (token: string | null, method: string, url: string, body?: object) => {
    const response = await fetch(`${o.baseUrl}${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    const text = await response.text()
    if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`)
    return JSON.parse(text) as Record<string, string>
  }
  const sale = async (): Promise<string> => {
    const buyer = await o.parties.buyer()
    const created = await call(o.parties.seller, 'POST', '/api/v1/me/transactions', {
      role: 'seller',
      price: 10_000,
      currency: 'eur',
      description: 'A benchmark bicycle',
      payment_method: 'card',
      charge: o.quote.charge,
      charge_calculator_version: o.quote.charge_calculator_version,
    })
    const id = created.id!
    await call(buyer, 'PUT', `/api/v1/transactions?join_code=${created.join_code}`)
    const payment = await call(buyer, 'POST', `/api/v1/transactions/${id}/pay`)
    await call(null, 'POST', `/sandbox/v1/payment_intents/${payment.payment_intent_id}/confirm`, {
      client_secret: payment.client_secret,
      card_number: '4242424242424242',
    })
    await call(buyer, 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: payment.payment_intent_id })
    await call(o.parties.seller, 'POST', `/api/v1/transactions/${id}/track`, {
      carrier: 'dhl',
      tracking_code: `BENCH${id.replaceAll('-', '').slice(-16).toUpperCase()}`,
    })
    const delivered = await call(buyer, 'POST', `/api/v1/transactions/${id}/confirm_delivery`)
    if (delivered.status !== 'delivered') throw new Error(`a benchmark sale is ${delivered.status} after confirm_delivery`)
    return id
  }

  const ids: string[] = []
  const apiSeconds: number[] = []
  const failures: string[] = []
  const started = performance.now()
  const until = started + o.seconds * 1000
  await Promise.all(
    Array.from({ length: o.workers }, async () => {
      while (performance.now() < until) {
        const begun = performance.now()
        try {
          ids.push(await sale())
          apiSeconds.push((performance.now() - begun) / 1000)
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error))
        }
      }
    }),
  )
  const released = async () =>
    Number(
      (
        await sql<{
          n: string
        }>`select count(*) as n from transactions where status = 'funds_released' and id = any(${ids}::uuid[])`.execute(o.db)
      ).rows[0]?.n ?? 0,
    )
  const deadline = performance.now() + 300_000
  while ((await released()) < ids.length) {
    if (performance.now() > deadline) throw new Error(`${ids.length - (await released())} sales were not released within 5 minutes`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const finished = performance.now()
  apiSeconds.sort((a, b) => a - b)
  return {
    sales: ids.length,
    perSecond: ids.length / ((finished - started) / 1000),
    apiSecondsMedian: apiSeconds[Math.floor(apiSeconds.length / 2)] ?? 0,
    failed: failures.length,
    ...(failures[0] ? { firstFailure: failures[0] } : {}),
  }
}

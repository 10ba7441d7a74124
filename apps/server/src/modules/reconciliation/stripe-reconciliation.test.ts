import { afterEach, beforeEach, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { joinedF2fSale, setTotal } from '../../testing/f2f-sale-steps.ts'
import { confirmDelivery, joinedSale, track } from '../../testing/sale-steps.ts'
import { startStripeFake, type StripeFake } from '../../testing/stripe-fake.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { stripeWebhookPath } from '../../adapters/payment-provider/stripe-webhook.ts'

/*
 * The reconciliation over the Stripe adapter: its balance transactions
 * listing (`GET /v1/balance_transactions`, sources expanded) read from the
 * fake, which keeps a balance transaction for each charge, refund and
 * transfer as Stripe does, in the platform's currency.
 */

let fake: StripeFake
let testApp: TestApp
let clock: TestClock
let call: ReturnType<typeof apiCaller<'seller' | 'buyer' | 'admin'>>

beforeEach(async () => {
  clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  fake = await startStripeFake({ now: () => clock.now() })
  testApp = await createTestApp({ clock, env: fake.env })
  fake.setWebhookTarget(
    async ({ headers, payload }) => (await testApp.app.inject({ method: 'POST', url: stripeWebhookPath, headers, payload })).statusCode,
  )
  call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, admin: { admin: true } }))
}, 60_000)
afterEach(async () => {
  await testApp.close()
  await fake.close()
})

async function paid(terms: { currency?: string; price?: number } = {}) {
  const { id } = await joinedSale(call, terms)
  const opened = await call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
  await fake.confirm(opened.body.payment_intent_id, opened.body.client_secret, { paymentMethod: 'pm_card_visa' })
  await fake.settle()
  return { id, intentId: opened.body.payment_intent_id as string }
}

async function reconcile(...dates: string[]) {
  const differences = []
  for (const date of dates) {
    const run = await call('admin', 'POST', '/api/v1/admin/reconciliation/runs', { date })
    expect(run).toMatchObject({ status: 200, body: { provider: 'stripe', reconciled: true } })
    differences.push(...run.body.differences)
  }
  return differences
}

it('matches charges, a card refund and transfers, a zloty sale on a euro platform through its charge’s rate, and names a refund made outside Pactum', async () => {
  const euro = await paid()
  const zloty = await paid({ currency: 'pln', price: 10_000 })
  const cancelled = await paid({ price: 5000 })
  for (const [id, code] of [
    [euro.id, 'JD0001401'],
    [zloty.id, 'JD0001402'],
  ] as const) {
    await track(call, id, { carrier: 'dhl', tracking_code: code })
    await confirmDelivery(call, id)
  }
  expect((await call('seller', 'POST', `/api/v1/transactions/${cancelled.id}/cancel`)).status).toBe(200)
  await clock.advance(testApp.app, 24 * 3600)
  await fake.settle()
  expect((await call('seller', 'GET', `/api/v1/transactions/${zloty.id}`)).body.status).toBe('funds_released')
  expect((await call('seller', 'GET', `/api/v1/transactions/${cancelled.id}`)).body.status).toBe('payment_refunded')

  expect(await reconcile('2026-11-22', '2026-11-23')).toEqual([])
  const listing = fake.requests.find((request) => request.path === '/v1/balance_transactions')
  expect(listing?.params).toMatchObject({ created: { gte: String(Date.parse('2026-11-22T00:00:00Z') / 1000) }, expand: ['data.source'] })
  const day = await call('admin', 'GET', '/api/v1/admin/reconciliation?date=2026-11-22')
  // The ledger in each sale's currency; Stripe's balance all in euros.
  expect(day.body.totals.ledger.map((totals: { currency: string }) => totals.currency)).toEqual(['eur', 'pln'])
  expect(day.body.totals.provider.map((totals: { currency: string }) => totals.currency)).toEqual(['eur'])

  // Someone refunds part of the euro sale in Stripe's dashboard: money left that the ledger never booked.
  const refunded = await fetch(`${fake.url}/v1/refunds`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fake.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ payment_intent: euro.intentId, amount: '500' }).toString(),
  })
  const refund = (await refunded.json()) as { id: string }
  await fake.settle()
  expect(await reconcile('2026-11-23')).toEqual([
    expect.objectContaining({
      kind: 'missing_in_ledger',
      movement: 'refund',
      provider_id: refund.id,
      ledger: null,
      provider: { amount: 500, currency: 'eur' },
    }),
  ])
})

it('matches a face-to-face release split over its two charges as one transfer', async () => {
  const { id } = await joinedF2fSale(call)
  const payPart = async (part: 'deposit' | 'remainder') => {
    const opened = await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/pay_${part}`)
    await fake.confirm(opened.body.payment_intent_id, opened.body.client_secret, { paymentMethod: 'pm_card_visa' })
    await fake.settle()
  }
  await payPart('deposit')
  expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/accept_deposit`)).body.status).toBe('deposit_accepted')
  await setTotal(call, id, 20_000)
  await payPart('remainder')
  await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)
  await clock.advance(testApp.app, 24 * 3600)
  await fake.settle()
  expect((await call('seller', 'GET', `/api/v1/p2p/transactions/${id}`)).body.status).toBe('funds_released')
  expect(fake.requests.filter((request) => request.method === 'POST' && request.path === '/v1/transfers')).toHaveLength(2)
  expect(await reconcile('2026-11-22', '2026-11-23')).toEqual([])
})

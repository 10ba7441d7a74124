import { afterEach, beforeEach, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { joinedF2fSale, setTotal } from '../../testing/f2f-sale-steps.ts'
import { confirmDelivery, joinedSale, type SaleCall, track } from '../../testing/sale-steps.ts'
import { startStripeFake, type StripeFake } from '../../testing/stripe-fake.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { stripeWebhookPath } from './stripe-webhook.ts'

/*
 * A whole online sale over the Stripe adapter against the fake: the buyer
 * pays with Stripe.js (the fake's confirmation with the publishable key and
 * client secret), Stripe's webhook tells Pactum, the parcel arrives, the
 * complaint window passes and the outbox transfers the price to the
 * seller's connected account from the buyer's charge. The books are
 * verified when the app closes (test-app.ts).
 */

let fake: StripeFake
let testApp: TestApp
let clock: TestClock
let call: SaleCall

beforeEach(async () => {
  clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  fake = await startStripeFake({ now: () => clock.now() })
  testApp = await createTestApp({ clock, env: fake.env })
  fake.setWebhookTarget(
    async ({ headers, payload }) => (await testApp.app.inject({ method: 'POST', url: stripeWebhookPath, headers, payload })).statusCode,
  )
  call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' } }))
}, 60_000)
afterEach(async () => {
  await testApp.close()
  await fake.close()
})

const status = async (id: string) => (await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.status as string

async function payWithStripeJs(id: string, paymentMethod = 'pm_card_visa') {
  const opened = await call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
  expect(opened.status).toBe(200)
  const intentId: string = opened.body.payment_intent_id
  const confirmed = await fake.confirm(intentId, opened.body.client_secret, { paymentMethod })
  await fake.settle()
  return { intentId, confirmed }
}

it('sells online from payment to release over Stripe, with the books balanced', async () => {
  // The browser's Stripe.js is given the real publishable key.
  const publishable = await call('buyer', 'GET', '/api/v1/me/personal/stripe_publishable_key')
  expect(publishable).toMatchObject({ status: 200, body: { publishable_key: fake.publishableKey } })
  const { id } = await joinedSale(call)
  const { intentId, confirmed } = await payWithStripeJs(id)
  expect(confirmed.status).toBe('succeeded')
  expect(await status(id)).toBe('paid')
  const created = fake.requests.find((request) => request.method === 'POST' && request.path === '/v1/payment_intents')
  expect(created).toMatchObject({
    idempotencyKey: expect.stringContaining(id),
    params: { transfer_group: id, metadata: { transaction_id: id }, allowed_payment_method_types: ['card'] },
  })

  await track(call, id, { carrier: 'dhl', tracking_code: 'JD0001299' })
  await confirmDelivery(call, id)
  await clock.advance(testApp.app, 24 * 3600)
  await fake.settle()
  expect(await status(id)).toBe('funds_released')

  const transferCall = fake.requests.find((request) => request.method === 'POST' && request.path === '/v1/transfers')
  const charge = fake.requests.find((request) => request.path === '/v1/charges')
  expect(charge?.params).toMatchObject({ transfer_group: id })
  expect(transferCall).toMatchObject({
    idempotencyKey: expect.any(String),
    params: { amount: '10000', currency: 'eur', transfer_group: id, source_transaction: expect.stringMatching(/^ch_/) },
  })
  const sellerAccount = await testApp.database.db.selectFrom('stripe_connected_accounts').select('account_id').executeTakeFirstOrThrow()
  expect(transferCall?.params.destination).toBe(sellerAccount.account_id)
  // Stripe's news of the transfer came back by webhook, recorded once.
  const recorded = await testApp.database.db
    .selectFrom('provider_events')
    .select(['provider', 'type'])
    .where('type', '=', 'transfer.created')
    .execute()
  expect(recorded).toEqual([{ provider: 'stripe', type: 'transfer.created' }])
  const intent = await testApp.app.services.payments.retrievePaymentIntent(intentId)
  expect(intent).toMatchObject({ status: 'succeeded', amountRefunded: 0 })
})

it('refunds the buyer in full through Stripe when the seller cancels after payment', async () => {
  const { id } = await joinedSale(call)
  const { intentId } = await payWithStripeJs(id)
  expect(await status(id)).toBe('paid')
  const cancelled = await call('seller', 'POST', `/api/v1/transactions/${id}/cancel`)
  expect(cancelled.status).toBe(200)
  await clock.advance(testApp.app, 0)
  await fake.settle()
  expect(await status(id)).toBe('payment_refunded')
  const refund = fake.requests.find((request) => request.method === 'POST' && request.path === '/v1/refunds')
  expect(refund).toMatchObject({
    idempotencyKey: expect.any(String),
    params: { payment_intent: intentId, metadata: { transaction_id: id } },
  })
  expect((await testApp.app.services.payments.retrievePaymentIntent(intentId)).amountRefunded).toBe(Number(refund?.params.amount))
})

it('ends a card refund on the refund’s own answer, with none of Stripe’s webhooks delivered', async () => {
  const { id } = await joinedSale(call)
  await payWithStripeJs(id)
  expect(await status(id)).toBe('paid')
  fake.pauseDeliveries(true)
  expect((await call('seller', 'POST', `/api/v1/transactions/${id}/cancel`)).status).toBe(200)
  await clock.advance(testApp.app, 0)
  await fake.settle()
  expect(await status(id)).toBe('payment_refunded')
})

it('sells in zloty on a euro platform: the release is transferred in euros at the charge’s rate, the books in zloty', async () => {
  const { id } = await joinedSale(call, { currency: 'pln', price: 10_000 })
  await payWithStripeJs(id)
  expect(await status(id)).toBe('paid')
  await track(call, id, { carrier: 'dhl', tracking_code: 'JD0001300' })
  await confirmDelivery(call, id)
  await clock.advance(testApp.app, 24 * 3600)
  await fake.settle()
  expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body).toMatchObject({
    status: 'funds_released',
    amount_released: 10_000,
    currency: 'pln',
  })
  const transferCall = fake.requests.find((request) => request.method === 'POST' && request.path === '/v1/transfers')
  // 10,000 PLN of a 10,470 PLN charge that settled as 2,408 EUR (the fake's rate 0.23).
  expect(transferCall?.params).toMatchObject({ currency: 'eur', amount: String(Math.floor((10_000 * 2408) / 10_470)) })
})

it('releases a face-to-face sale from its two charges, deposit first, each transfer within its charge', async () => {
  const { id } = await joinedF2fSale(call)
  const payPart = async (part: 'deposit' | 'remainder') => {
    const opened = await call('buyer', 'POST', `/api/v1/p2p/transactions/${id}/pay_${part}`)
    expect(opened.status).toBe(200)
    await fake.confirm(opened.body.payment_intent_id, opened.body.client_secret, { paymentMethod: 'pm_card_visa' })
    await fake.settle()
  }
  await payPart('deposit')
  expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/accept_deposit`)).body.status).toBe('deposit_accepted')
  await setTotal(call, id, 20_000)
  await payPart('remainder')
  expect((await call('seller', 'POST', `/api/v1/p2p/transactions/${id}/confirm_handover`)).body.status).toBe('seller_handover_confirmed')
  await clock.advance(testApp.app, 24 * 3600)
  await fake.settle()
  expect((await call('seller', 'GET', `/api/v1/p2p/transactions/${id}`)).body).toMatchObject({
    status: 'funds_released',
    amount_released: 20_000,
  })

  const transfers = fake.requests.filter((request) => request.method === 'POST' && request.path === '/v1/transfers')
  const deposit = fake.events.find(
    (event) => event.type === 'charge.succeeded' && (event.data as { object: { amount: number } }).object.amount < 10_000,
  )
  const depositCharge = (deposit?.data as { object: { id: string; amount: number } }).object
  expect(transfers.map((request) => [request.params.source_transaction, Number(request.params.amount)])).toEqual([
    [depositCharge.id, depositCharge.amount],
    [expect.not.stringMatching(depositCharge.id), 20_000 - depositCharge.amount],
  ])
  expect(new Set(transfers.map((request) => request.idempotencyKey)).size).toBe(2)
})

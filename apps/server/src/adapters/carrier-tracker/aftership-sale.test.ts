import { afterEach, beforeEach, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { type AftershipFake, startAftershipFake } from '../../testing/aftership-fake.ts'
import { joinedSale, payByCard, type SaleCall, track } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { trackingWebhookPath } from './aftership-webhook-route.ts'

let fake: AftershipFake
let testApp: TestApp
let clock: TestClock
let call: SaleCall

beforeEach(async () => {
  fake = await startAftershipFake()
  // A courier that answers only with the recipient's postal code and country (AfterShip lists them as its required_fields).
  fake.couriers.push({
    slug: 'postnl-3s',
    name: 'PostNL International',
    required_fields: ['destination_postal_code', 'destination_country_region'],
  })
  clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  testApp = await createTestApp({
    clock,
    env: { TRACKING_API_KEY: fake.apiKey, TRACKING_WEBHOOK_SECRET: fake.webhookSecret, TRACKING_API_URL: fake.url },
  })
  call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' } }))
}, 30_000)
afterEach(async () => {
  await testApp.close()
  await fake.close()
})

const status = async (id: string) => (await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.status as string

it('follows an online sale from tracking to release through the aggregator, with the books balanced', async () => {
  const { id } = await joinedSale(call)
  await payByCard(call, id)
  // Yodel is on the account's courier list only: the list the API gave decides what a seller may pick.
  const refused = await call('seller', 'POST', `/api/v1/transactions/${id}/track`, { carrier: 'fedex', tracking_code: 'FX1' })
  expect(refused.status).toBe(400)
  expect(refused.body).toMatchObject({ details: { field: 'body.carrier' } })
  expect(await track(call, id, { carrier: 'yodel', tracking_code: 'jd0001234yd' })).toMatchObject({ status: 'tracked' })
  await clock.advance(testApp.app, 0)
  const remote = fake.find('yodel', 'JD0001234YD')
  expect(remote).toMatchObject({ order_id: id, custom_fields: { pactum_transaction_id: id } })
  if (!remote) throw new Error('not registered')

  const send = async (tag: string) => {
    await clock.moveBy(3600)
    const webhook = fake.webhook(fake.checkpoint('yodel', 'JD0001234YD', tag, clock.now()))
    return (await testApp.app.inject({ method: 'POST', url: trackingWebhookPath, headers: webhook.headers, payload: webhook.payload }))
      .statusCode
  }
  expect(await send('InTransit')).toBe(200)
  expect(await send('Delivered')).toBe(200)
  expect(await status(id)).toBe('delivered')
  await clock.advance(testApp.app, 24 * 3600)
  expect(await status(id)).toBe('funds_released')
})

it('sends the buyer’s postal code and country when the courier requires them, and only then', async () => {
  const { id } = await joinedSale(call)
  const address = { name: 'Bea Buyer', line1: 'Damrak 1', city: 'Amsterdam', postal_code: '1012 LG', country_code: 'nl' }
  expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/shipping_details`, address)).status).toBe(200)
  await payByCard(call, id)
  await track(call, id, { carrier: 'postnl-3s', tracking_code: '3SPOST0001' })
  await clock.advance(testApp.app, 0)
  const [create] = fake.requests.filter((request) => request.method === 'POST' && request.url.endsWith('/trackings'))
  expect(create?.body).toEqual({
    slug: 'postnl-3s',
    tracking_number: '3SPOST0001',
    order_id: id,
    custom_fields: { pactum_transaction_id: id },
    destination_postal_code: '1012 LG',
    destination_country_region: 'NLD',
  })
  expect(fake.find('postnl-3s', '3SPOST0001')).toMatchObject({ destination_postal_code: '1012 LG' })
})

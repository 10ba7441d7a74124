import { afterEach, describe, expect, it } from 'vitest'
import { TestClock } from '../../testing/test-clock.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let testApp: TestApp | undefined
afterEach(async () => {
  await testApp?.close()
  testApp = undefined
})

async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  testApp = await createTestApp({ clock })
  const { app, tokenFor } = testApp
  const tokens = {
    seller: await tokenFor('seller@example.com', { firstName: 'Sam' }),
    buyer: await tokenFor('buyer@example.com', { firstName: 'Bea' }),
    stranger: await tokenFor('stranger@example.com'),
  }
  const call = async (who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) })
    return { status: response.statusCode, body: response.body ? response.json() : undefined }
  }
  return { app, clock, call }
}

describe('GET /app_api/balance and /app_api/payouts', () => {
  it('answers 401 without a token', async () => {
    const { app } = await start()
    expect((await app.inject({ url: '/app_api/balance' })).statusCode).toBe(401)
    expect((await app.inject({ url: '/app_api/payouts' })).statusCode).toBe(401)
  })

  it('shows a new user an empty balance and no payouts, without creating an account', async () => {
    const { app, call } = await start()
    expect(await call('seller', 'GET', '/app_api/balance')).toEqual({ status: 200, body: { available: [], pending: [] } })
    expect(await call('seller', 'GET', '/app_api/payouts')).toEqual({ status: 200, body: [] })
    expect(await app.services.db.selectFrom('sandbox_accounts').selectAll().execute()).toEqual([])
  })

  it('shows the seller what a released sale credited, and nobody else', async () => {
    const { app, clock, call } = await start()
    const quote = await call('seller', 'GET', '/api/v1/charge?price=10000&currency=eur&payment_method=card')
    const created = await call('seller', 'POST', '/api/v1/me/transactions', {
      role: 'seller',
      price: 10_000,
      currency: 'eur',
      description: 'A blue bicycle',
      payment_method: 'card',
      charge: quote.body.charge,
      charge_calculator_version: quote.body.charge_calculator_version,
    })
    expect(created.status).toBe(201)
    const id: string = created.body.id
    expect((await call('buyer', 'PUT', `/api/v1/transactions?join_code=${created.body.join_code}`)).body.status).toBe('joined')
    const opened = await call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
    const confirmed = await app.inject({
      method: 'POST',
      url: `/sandbox/v1/payment_intents/${opened.body.payment_intent_id}/confirm`,
      payload: { client_secret: opened.body.client_secret, card_number: '4242424242424242' },
    })
    expect(confirmed.statusCode).toBe(200)
    await call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: opened.body.payment_intent_id })
    await app.services.jobs.runDue()
    await call('seller', 'POST', `/api/v1/transactions/${id}/track`, { carrier: 'dhl', tracking_code: 'jd0001234' })
    await call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_delivery`)
    await clock.advance(app, 24 * 3600)
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('funds_released')

    const expected = 10_000 - (quote.body.charge_seller as number)
    expect((await call('seller', 'GET', '/app_api/balance')).body).toEqual({ available: [{ amount: expected, currency: 'eur' }], pending: [] })
    const payouts = await call('seller', 'GET', '/app_api/payouts')
    expect(payouts.body).toEqual([
      { id: expect.stringMatching(/^tr_/), amount: expected, currency: 'eur', status: 'paid', created: '2026-11-23T10:00:00.000Z', transaction_id: id },
    ])

    for (const who of ['buyer', 'stranger'] as const) {
      expect((await call(who, 'GET', '/app_api/balance')).body).toEqual({ available: [], pending: [] })
      expect((await call(who, 'GET', '/app_api/payouts')).body).toEqual([])
    }
  })
})

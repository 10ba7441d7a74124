import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { uploadDocument } from '../../testing/identity-upload.ts'
import { confirmDelivery, joinedSale, payByCard, track } from '../../testing/sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'

const testApps = appPerTest()

const documentCheck = 5
const payoutDelay = 60
const payoutArrival = 120

async function start() {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const testApp = await testApps.open({
    clock,
    env: {
      SANDBOX_DOCUMENT_CHECK_SECONDS: String(documentCheck),
      SANDBOX_PAYOUT_DELAY_SECONDS: String(payoutDelay),
      SANDBOX_PAYOUT_ARRIVAL_SECONDS: String(payoutArrival),
    },
  })
  const { app } = testApp
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer: { firstName: 'Bea' }, stranger: {} })
  return { app, clock, call: apiCaller(app, tokens), tokens }
}

type Started = Awaited<ReturnType<typeof start>>

/** Who the seller is, as the provider asks before it pays out. */
const sellerDetails = {
  name: { first: 'Sam', last: 'Seller' },
  dob: { day: 1, month: 2, year: 1990 },
  address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115' },
  phone: '+4915112345678',
}

/** Country, terms, personal details, a bank account and a verified identity document. */
async function readyForPayouts(app: Started['app'], clock: TestClock, call: Started['call'], token: string, iban: string) {
  expect((await call('seller', 'POST', '/api/v1/me/personal/set_active_country', { country_code: 'de' })).status).toBe(204)
  expect((await call('seller', 'POST', '/api/v1/me/accept_tos_direct')).status).toBe(200)
  expect((await call('seller', 'PUT', '/api/v1/me/personal', sellerDetails)).status).toBe(200)
  expect((await call('seller', 'POST', '/api/v1/me/debit_account', { account_holder_name: 'Sam Seller', iban })).status).toBe(200)
  expect((await uploadDocument(app, token)).status).toBe(200)
  await clock.advance(app, documentCheck)
  // The run these changes scheduled finds nothing to pay out yet.
  await clock.advance(app, payoutDelay)
  const requirements = await call('seller', 'GET', '/api/v1/me/personal/payout_requirements')
  expect(requirements.body.requirements.other).toEqual([])
}

/** A card sale of 100.00 EUR from seller to buyer, delivered and released after the complaint period. */
async function releasedSale(app: Started['app'], clock: TestClock, call: Started['call']) {
  const { id, quote } = await joinedSale(call)
  await payByCard(call, id)
  await app.services.jobs.runDue()
  await track(call, id, { carrier: 'dhl', tracking_code: 'jd0001234' })
  await confirmDelivery(call, id)
  await clock.advance(app, 24 * 3600)
  expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('funds_released')
  return { id, expected: 10_000 - (quote.charge_seller as number) }
}

describe('GET /app_api/balance and /app_api/payouts', () => {
  it('answers 401 without a token', async () => {
    const { app } = await start()
    expect((await app.inject({ url: '/app_api/balance' })).statusCode).toBe(401)
    expect((await app.inject({ url: '/app_api/payouts' })).statusCode).toBe(401)
  })

  it('shows a new user an empty balance and no payouts, without creating an account', async () => {
    const { app, call } = await start()
    const balance = await call('seller', 'GET', '/app_api/balance')
    expect(balance.status).toBe(200)
    expect(balance.body).toEqual({ available: [], pending: [] })
    const payouts = await call('seller', 'GET', '/app_api/payouts')
    expect(payouts.status).toBe(200)
    expect(payouts.body).toEqual([])
    expect(await app.services.db.selectFrom('sandbox_accounts').selectAll().execute()).toEqual([])
  })

  it('credits a released sale to the balance and pays it out to the bank on the schedule, for the seller only', async () => {
    const { app, clock, call, tokens } = await start()
    await readyForPayouts(app, clock, call, tokens.seller, 'DE89370400440532013000')
    const { id, expected } = await releasedSale(app, clock, call)

    // Released: credited to the balance, the payout run falls due later.
    expect((await call('seller', 'GET', '/app_api/balance')).body).toEqual({
      available: [{ amount: expected, currency: 'eur' }],
      pending: [],
    })
    expect((await call('seller', 'GET', '/app_api/payouts')).body).toEqual([])

    await clock.advance(app, payoutDelay)
    const inTransit = await call('seller', 'GET', '/app_api/payouts')
    expect(inTransit.body).toEqual([
      {
        id: expect.stringMatching(/^po_/),
        amount: expected,
        currency: 'eur',
        status: 'in_transit',
        created: clock.now().toISOString(),
        arrival_date: new Date(clock.now().getTime() + payoutArrival * 1000).toISOString(),
        bank_account_last4: '3000',
        failure_message: null,
        failure_code: null,
        next_step: null,
      },
    ])
    expect((await call('seller', 'GET', '/app_api/balance')).body).toEqual({
      available: [],
      pending: [{ amount: expected, currency: 'eur' }],
    })

    await clock.advance(app, payoutArrival)
    expect((await call('seller', 'GET', '/app_api/payouts')).body).toMatchObject([
      { id: inTransit.body[0].id, status: 'paid', failure_message: null },
    ])
    expect((await call('seller', 'GET', '/app_api/balance')).body).toEqual({ available: [], pending: [] })
    // The provider announced each step.
    const events = await app.services.db.selectFrom('sandbox_webhook_deliveries').select('type').where('type', 'like', 'payout.%').execute()
    expect(events.map((event) => event.type).sort()).toEqual(['payout.created', 'payout.paid'])
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('funds_released')

    for (const who of ['buyer', 'stranger'] as const) {
      expect((await call(who, 'GET', '/app_api/balance')).body).toEqual({ available: [], pending: [] })
      expect((await call(who, 'GET', '/app_api/payouts')).body).toEqual([])
    }
  })

  it('holds the balance until the identity document is verified, then pays out', async () => {
    const { app, clock, call, tokens } = await start()
    await call('seller', 'POST', '/api/v1/me/personal/set_active_country', { country_code: 'de' })
    await call('seller', 'POST', '/api/v1/me/accept_tos_direct')
    expect((await call('seller', 'PUT', '/api/v1/me/personal', sellerDetails)).status).toBe(200)
    expect(
      (await call('seller', 'POST', '/api/v1/me/debit_account', { account_holder_name: 'Sam Seller', iban: 'DE89370400440532013000' }))
        .status,
    ).toBe(200)
    const { expected } = await releasedSale(app, clock, call)

    await clock.advance(app, payoutDelay + payoutArrival)
    expect((await call('seller', 'GET', '/app_api/payouts')).body).toEqual([])
    expect((await call('seller', 'GET', '/app_api/balance')).body).toEqual({
      available: [{ amount: expected, currency: 'eur' }],
      pending: [],
    })

    expect((await uploadDocument(app, tokens.seller)).status).toBe(200)
    await clock.advance(app, documentCheck)
    await clock.advance(app, payoutDelay)
    expect((await call('seller', 'GET', '/app_api/payouts')).body).toMatchObject([{ amount: expected, status: 'in_transit' }])
  })

  it('returns a payout the bank refuses to the balance, with the reason', async () => {
    const { app, clock, call, tokens } = await start()
    // Stripe's test IBAN (and the sandbox's) whose payouts fail with no_account: ending in 3001.
    await readyForPayouts(app, clock, call, tokens.seller, 'DE62370400440532013001')
    const { expected } = await releasedSale(app, clock, call)

    await clock.advance(app, payoutDelay)
    await clock.advance(app, payoutArrival)
    expect((await call('seller', 'GET', '/app_api/payouts')).body).toMatchObject([
      {
        amount: expected,
        status: 'failed',
        bank_account_last4: '3001',
        failure_code: 'no_account',
        failure_message: 'The bank account details on file are probably incorrect. No bank account could be located with those details.',
        next_step: 'update_bank_account',
      },
    ])
    expect((await call('seller', 'GET', '/app_api/balance')).body).toEqual({
      available: [{ amount: expected, currency: 'eur' }],
      pending: [],
    })
  })
})

import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { createSale, joinSale, payByCard, sepaProcessing } from '../../testing/sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { TestClock } from '../../testing/test-clock.ts'

const testApps = appPerTest()

/** `companyBuyer`: the buyer's confirmed address is in the company domain, so they may pay by SEPA (DESIGN §2). */
async function start(options: { companyBuyer?: boolean } = {}) {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const testApp = await testApps.open({ clock, env: options.companyBuyer ? { COMPANY_EMAIL_DOMAIN: 'example.com' } : {} })
  const tokens = await partyTokens(testApp.tokenFor, {
    seller: { firstName: 'Sam', lastName: 'Seller' },
    buyer: { firstName: 'Bea', lastName: 'Buyer', emailVerified: options.companyBuyer ?? false },
    stranger: {},
  })
  return { app: testApp.app, clock, call: apiCaller(testApp.app, tokens) }
}

const address = { name: 'Bea Buyer', line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country_code: 'de' }

describe('PATCH /transactions/{id}', () => {
  it('lets the creator reprice before anyone joined, with the fee they were shown', async () => {
    const { app, call } = await start()
    const {
      id,
      joinCode,
      quote: { charge_calculator_version: version },
    } = await createSale(call)

    expect(version).toBe(1)
    // The transaction's own quote names the same integer version and the partner shares.
    const ownQuote = await call('seller', 'GET', `/api/v1/transactions/${id}/charge?price=20000&payment_method=p24`)
    expect(ownQuote.body).toEqual({
      price: 20_000,
      currency: 'eur',
      payment_method: 'p24',
      charge: 640,
      charge_seller: 0,
      charge_buyer_client: 0,
      charge_seller_client: 0,
      charge_calculator_version: 1,
    })
    const quote = await call('seller', 'GET', '/api/v1/charge?price=20000&currency=pln&payment_method=p24')
    const updated = await call('seller', 'PATCH', `/api/v1/transactions/${id}`, {
      price: 20_000,
      currency: 'pln',
      payment_method: 'p24',
      description: 'A red bicycle',
      charge: quote.body.charge,
      charge_calculator_version: version,
    })
    expect(updated).toMatchObject({
      status: 200,
      body: {
        price: 20_000,
        currency: 'pln',
        charge: 770,
        charge_calculator_version: 1,
        payment_method: 'p24',
        description: 'A red bicycle',
        status: 'created',
        join_code: joinCode,
      },
    })
    // P24 is not paid in pounds: no fee is quoted, and the sale cannot be repriced so.
    expect(await call('seller', 'GET', '/api/v1/charge?price=20000&currency=gbp&payment_method=p24')).toMatchObject({
      status: 400,
      body: { code: 'unsupported_combination', details: { field: 'payment_method' } },
    })
    // The invitee sees the new terms.
    expect((await call('buyer', 'GET', `/api/v1/transactions?join_code=${joinCode}`)).body).toMatchObject({
      price: 20_000,
      currency: 'pln',
      charge: 770,
    })

    // The description alone needs no fee.
    expect((await call('seller', 'PATCH', `/api/v1/transactions/${id}`, { description: 'Bicycle' })).body).toMatchObject({
      description: 'Bicycle',
      price: 20_000,
    })
    const audit = await app.services.db
      .selectFrom('transaction_events')
      .select(['event', 'actor_user_id'])
      .where('transaction_id', '=', id)
      .execute()
    // Creation is audited too, by the same engine.
    expect(audit.map((row) => row.event)).toEqual(['create', 'update', 'update'])
  })

  it('refuses a fee the creator was not shown, and bad input naming the field', async () => {
    const { call } = await start()
    const {
      id,
      quote: { charge_calculator_version: version },
    } = await createSale(call)
    const stale = await call('seller', 'PATCH', `/api/v1/transactions/${id}`, {
      price: 5000,
      charge: 340,
      charge_calculator_version: version,
    })
    expect(stale).toMatchObject({ status: 409, body: { code: 'incorrect_charge', details: { charge: 190 } } })
    expect(
      (await call('seller', 'PATCH', `/api/v1/transactions/${id}`, { price: 5000, charge: 190, charge_calculator_version: 2 })).body.code,
    ).toBe('incorrect_calc_version')
    const noFee = await call('seller', 'PATCH', `/api/v1/transactions/${id}`, { price: 5000 })
    expect(noFee).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { field: 'body.charge' } } })
    expect(
      (await call('seller', 'PATCH', `/api/v1/transactions/${id}`, { price: 99, charge: 43, charge_calculator_version: version })).body,
    ).toMatchObject({
      code: 'price_too_low',
      details: { field: 'price' },
    })
    expect(
      (await call('seller', 'PATCH', `/api/v1/transactions/${id}`, { currency: 'jpy', charge: 60, charge_calculator_version: version }))
        .body,
    ).toMatchObject({
      code: 'unsupported_currency',
      details: { field: 'currency' },
    })
    const badType = await call('seller', 'PATCH', `/api/v1/transactions/${id}`, { price: '5000', description: '' })
    expect(badType.status).toBe(400)
    expect(badType.body.details.fields.map((field: { field: string }) => field.field)).toEqual(['body.price', 'body.description'])
    // Nothing changed.
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body).toMatchObject({ price: 10_000, charge: 340, currency: 'eur' })
  })

  it('is the creator’s alone, and only until someone joins', async () => {
    const { app, call } = await start()
    const { id, joinCode } = await createSale(call)
    // Offered as an action (`update`) exactly while it is allowed, so a screen can show it.
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.available_actions).toEqual(['update', 'cancel'])
    expect((await call('stranger', 'PATCH', `/api/v1/transactions/${id}`, { description: 'Mine now' })).status).toBe(404)
    expect((await app.inject({ method: 'PATCH', url: `/api/v1/transactions/${id}`, payload: { description: 'x' } })).statusCode).toBe(401)
    await joinSale(call, joinCode)
    expect((await call('buyer', 'PATCH', `/api/v1/transactions/${id}`, { description: 'Cheaper' })).body.code).toBe('forbidden')
    expect((await call('buyer', 'PATCH', `/api/v1/transactions/${id}`, { description: 'Cheaper' })).status).toBe(403)
    const late = await call('seller', 'PATCH', `/api/v1/transactions/${id}`, { description: 'Changed my mind' })
    expect(late).toMatchObject({ status: 409, body: { code: 'already_joined' } })
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.available_actions).not.toContain('update')

    const other = await createSale(call)
    await call('seller', 'POST', `/api/v1/transactions/${other.id}/cancel`)
    expect((await call('seller', 'PATCH', `/api/v1/transactions/${other.id}`, { description: 'x' })).body.code).toBe('already_cancelled')
  })
})

describe('supported currencies', () => {
  it('lists the user’s currencies, and needs a sign-in', async () => {
    const { app, call } = await start()
    const ordinary = ['eur', 'usd', 'gbp', 'pln', 'sek', 'myr', 'aud']
    const currencies = await call('buyer', 'GET', '/api/v1/me/supported_currencies')
    expect(currencies).toMatchObject({ status: 200, body: ordinary })
    expect((await app.inject({ url: '/api/v1/me/supported_currencies' })).statusCode).toBe(401)
    expect((await app.inject({ url: '/api/v1/me/supported_payout_currencies' })).statusCode).toBe(401)
  })
})

describe('supported payout currencies', () => {
  it('answers the payout country’s currencies, once a country is set', async () => {
    const { call } = await start()
    expect(await call('seller', 'GET', '/api/v1/me/supported_payout_currencies')).toMatchObject({
      status: 409,
      body: { code: 'active_country_not_set' },
    })
    await call('seller', 'POST', '/api/v1/me/personal/set_active_country', { country_code: 'us' })
    expect(await call('seller', 'GET', '/api/v1/me/supported_payout_currencies')).toMatchObject({ status: 200, body: ['usd'] })
    await call('buyer', 'POST', '/api/v1/me/personal/set_active_country', { country_code: 'pl' })
    const polish = await call('buyer', 'GET', '/api/v1/me/supported_payout_currencies')
    expect(polish.body.slice(0, 2)).toEqual(['pln', 'eur'])
    expect(polish.body).not.toContain('myr')
  })
})

describe('party details', () => {
  it('shows each party’s name and e-mail to the parties, nulls while a role is open', async () => {
    const { app, call } = await start()
    const { id, joinCode } = await createSale(call)
    const sellerDetails = await call('seller', 'GET', `/api/v1/transactions/${id}/seller_details`)
    expect(sellerDetails.status).toBe(200)
    expect(sellerDetails.body).toEqual({ first_name: 'Sam', last_name: 'Seller', email: 'seller@example.com' })
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}/buyer_details`)).body).toEqual({
      first_name: null,
      last_name: null,
      email: null,
    })
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}/seller_details`)).status).toBe(404)
    await joinSale(call, joinCode)
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}/buyer_details`)).body).toEqual({
      first_name: 'Bea',
      last_name: 'Buyer',
      email: 'buyer@example.com',
    })
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}/seller_details`)).body.email).toBe('seller@example.com')
    expect((await call('stranger', 'GET', `/api/v1/transactions/${id}/buyer_details`)).status).toBe(404)
    expect((await call('stranger', 'GET', '/api/v1/transactions/not-a-uuid/seller_details')).status).toBe(404)
    expect((await app.inject({ url: `/api/v1/transactions/${id}/seller_details` })).statusCode).toBe(401)
  })
})

describe('shipping details', () => {
  it('takes the buyer’s address before paying and shows it to both parties', async () => {
    const { call } = await start()
    const { id, joinCode } = await createSale(call)
    await joinSale(call, joinCode)
    expect(await call('seller', 'GET', `/api/v1/transactions/${id}/shipping_details`)).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    })

    const saved = await call('buyer', 'POST', `/api/v1/transactions/${id}/shipping_details`, { ...address, line2: '  ', state: 'BE' })
    const stored = { ...address, line2: null, state: 'BE' }
    expect(saved.status).toBe(200)
    expect(saved.body).toEqual(stored)
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}/shipping_details`)).body).toEqual(stored)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}/billing_details`)).body).toEqual(stored)
    // The buyer may correct it while not paid.
    const corrected = await call('buyer', 'POST', `/api/v1/transactions/${id}/shipping_details`, { ...address, line1: 'Hauptstraße 2' })
    expect(corrected.body).toMatchObject({ line1: 'Hauptstraße 2', state: null })
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}/shipping_details`)).body.line1).toBe('Hauptstraße 2')
  })

  it('names every bad field, and refuses the seller, strangers and the signed-out', async () => {
    const { app, call } = await start()
    const { id, joinCode } = await createSale(call)
    await joinSale(call, joinCode)
    const bad = await call('buyer', 'POST', `/api/v1/transactions/${id}/shipping_details`, {
      name: ' ',
      line1: 'x'.repeat(201),
      city: 'Berlin',
      postal_code: '<script>',
      country_code: 'DE',
    })
    expect(bad).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
    expect(bad.body.details.fields.map((field: { field: string }) => field.field)).toEqual([
      'body.name',
      'body.line1',
      'body.postal_code',
      'body.country_code',
    ])
    for (const country of ['xx', 'eu', 'd', 'deu']) {
      const response = await call('buyer', 'POST', `/api/v1/transactions/${id}/shipping_details`, { ...address, country_code: country })
      expect(response.body, country).toMatchObject({ code: 'validation_failed' })
      expect(response.body.details.fields).toEqual([expect.objectContaining({ field: 'body.country_code' })])
    }
    const missing = await call('buyer', 'POST', `/api/v1/transactions/${id}/shipping_details`, { name: 'Bea' })
    expect(missing.body.details.fields.map((field: { field: string }) => field.field)).toEqual([
      'body.line1',
      'body.city',
      'body.postal_code',
      'body.country_code',
    ])

    expect(await call('seller', 'POST', `/api/v1/transactions/${id}/shipping_details`, address)).toMatchObject({
      status: 403,
      body: { code: 'not_buyer' },
    })
    expect((await call('stranger', 'POST', `/api/v1/transactions/${id}/shipping_details`, address)).status).toBe(404)
    expect((await app.inject({ method: 'POST', url: `/api/v1/transactions/${id}/shipping_details`, payload: address })).statusCode).toBe(
      401,
    )
    expect((await call('stranger', 'GET', `/api/v1/transactions/${id}/shipping_details`)).status).toBe(404)
    expect((await call('stranger', 'GET', `/api/v1/transactions/${id}/billing_details`)).status).toBe(404)
    expect((await app.inject({ url: `/api/v1/transactions/${id}/billing_details` })).statusCode).toBe(401)
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}/billing_details`)).status).toBe(404)
  })

  it('cannot change once paid or cancelled', async () => {
    const { call } = await start()
    const { id, joinCode } = await createSale(call)
    await joinSale(call, joinCode)
    await call('buyer', 'POST', `/api/v1/transactions/${id}/shipping_details`, address)
    await payByCard(call, id)
    const late = await call('buyer', 'POST', `/api/v1/transactions/${id}/shipping_details`, { ...address, line1: 'Elsewhere 5' })
    expect(late).toMatchObject({ status: 409, body: { code: 'already_paid' } })
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}/shipping_details`)).body.line1).toBe('Hauptstraße 1')

    const other = await createSale(call)
    await joinSale(call, other.joinCode)
    await call('buyer', 'POST', `/api/v1/transactions/${other.id}/cancel`)
    expect((await call('buyer', 'POST', `/api/v1/transactions/${other.id}/shipping_details`, address)).body.code).toBe('already_cancelled')
  })

  it('cannot change while a SEPA payment is processing: payment_in_progress', async () => {
    const { call } = await start({ companyBuyer: true })
    const { id, joinCode } = await createSale(call)
    await joinSale(call, joinCode)
    await sepaProcessing(call, id)
    const late = await call('buyer', 'POST', `/api/v1/transactions/${id}/shipping_details`, address)
    expect(late).toMatchObject({ status: 409, body: { code: 'payment_in_progress', details: { status: 'joined' } } })
  })
})

describe('GET /me/last_shipping_details', () => {
  it('answers the address the buyer gave most recently, null before the first, and only their own', async () => {
    const { app, clock, call } = await start()
    const none = await call('buyer', 'GET', '/api/v1/me/last_shipping_details')
    expect(none).toMatchObject({ status: 200, body: { shipping_details: null } })

    const first = await createSale(call)
    await joinSale(call, first.joinCode)
    await call('buyer', 'POST', `/api/v1/transactions/${first.id}/shipping_details`, address)
    await payByCard(call, first.id)
    expect((await call('buyer', 'GET', '/api/v1/me/last_shipping_details')).body).toEqual({
      shipping_details: { ...address, line2: null, state: null },
    })

    // A later checkout's address replaces it, paid or not.
    await clock.moveBy(60)
    const second = await createSale(call)
    await joinSale(call, second.joinCode)
    const office = { name: 'Bea Buyer', line1: 'Büroweg 7', line2: '3. OG', city: 'Hamburg', postal_code: '20095', country_code: 'de' }
    await call('buyer', 'POST', `/api/v1/transactions/${second.id}/shipping_details`, office)
    expect((await call('buyer', 'GET', '/api/v1/me/last_shipping_details')).body.shipping_details).toEqual({ ...office, state: null })

    // The seller and a stranger never gave one: they get null, not the buyer's.
    expect((await call('seller', 'GET', '/api/v1/me/last_shipping_details')).body).toEqual({ shipping_details: null })
    expect((await call('stranger', 'GET', '/api/v1/me/last_shipping_details')).body).toEqual({ shipping_details: null })
    expect((await app.inject({ url: '/api/v1/me/last_shipping_details' })).statusCode).toBe(401)
  })

  it('follows a correction: the address changed last wins', async () => {
    const { clock, call } = await start()
    const first = await createSale(call)
    const second = await createSale(call)
    await joinSale(call, first.joinCode)
    await joinSale(call, second.joinCode)
    await call('buyer', 'POST', `/api/v1/transactions/${first.id}/shipping_details`, address)
    await clock.moveBy(60)
    await call('buyer', 'POST', `/api/v1/transactions/${second.id}/shipping_details`, { ...address, line1: 'Nebenstraße 9' })
    await clock.moveBy(60)
    await call('buyer', 'POST', `/api/v1/transactions/${first.id}/shipping_details`, { ...address, line1: 'Hauptstraße 3' })
    expect((await call('buyer', 'GET', '/api/v1/me/last_shipping_details')).body.shipping_details.line1).toBe('Hauptstraße 3')
  })
})

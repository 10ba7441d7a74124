import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { joinedF2fSale } from '../../testing/f2f-sale-steps.ts'
import { createSale, joinedSale, joinSale, payByCard } from '../../testing/sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { TestClock } from '../../testing/test-clock.ts'

/*
 * DESIGN §2: card and P24 for everyone, SEPA only for users whose confirmed
 * address is in the company domain. One policy, held on every path that
 * chooses or uses a method: create, update, set_payment_method, pay.
 */

const testApps = appPerTest()

/** Everyone is `<role>@example.com`; only a confirmed address counts, so `company` is whoever is verified. */
async function start(
  verified: { seller?: boolean; buyer?: boolean } = {},
  env: Record<string, string> = { COMPANY_EMAIL_DOMAIN: 'example.com' },
) {
  const testApp = await testApps.open({ clock: new TestClock(new Date('2026-11-22T10:00:00Z')), env })
  const tokens = await partyTokens(testApp.tokenFor, {
    seller: { firstName: 'Sam', emailVerified: verified.seller ?? false },
    buyer: { firstName: 'Bea', emailVerified: verified.buyer ?? false },
  })
  return { app: testApp.app, call: apiCaller(testApp.app, tokens) }
}

const notAllowed = { status: 403, body: { code: 'payment_method_not_allowed', details: { field: 'payment_method' } } }

describe('GET /me/supported_payment_methods', () => {
  it('gives card and P24 to everyone and SEPA to confirmed company addresses only', async () => {
    const { app, call } = await start({ seller: true })
    expect(await call('seller', 'GET', '/api/v1/me/supported_payment_methods')).toMatchObject({
      status: 200,
      body: ['card', 'p24', 'sepa'],
    })
    // The same domain, not confirmed: ordinary.
    expect((await call('buyer', 'GET', '/api/v1/me/supported_payment_methods')).body).toEqual(['card', 'p24'])
    expect((await app.inject({ url: '/api/v1/me/supported_payment_methods' })).statusCode).toBe(401)
  })

  it('gives partner-domain users no SEPA', async () => {
    const { call } = await start({ buyer: true }, { PARTNER_EMAIL_DOMAINS: 'example.com' })
    expect((await call('buyer', 'GET', '/api/v1/me/supported_payment_methods')).body).toEqual(['card', 'p24'])
  })
})

describe('an ordinary user and SEPA', () => {
  it('cannot create or reprice a sale with SEPA; a company user can', async () => {
    const { call } = await start({ buyer: true })
    const quote = await call('seller', 'GET', '/api/v1/charge?price=10000&currency=eur&payment_method=sepa')
    const body = {
      role: 'seller',
      price: 10_000,
      currency: 'eur',
      description: 'A lamp',
      payment_method: 'sepa',
      charge: quote.body.charge,
      charge_calculator_version: 1,
    }
    expect(await call('seller', 'POST', '/api/v1/me/transactions', body)).toMatchObject(notAllowed)

    const { id } = await createSale(call)
    const change = { payment_method: 'sepa', charge: quote.body.charge, charge_calculator_version: 1 }
    expect(await call('seller', 'PATCH', `/api/v1/transactions/${id}`, change)).toMatchObject(notAllowed)
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.payment_method).toBe('card')

    // The company user (here the verified buyer, creating as seller) may.
    expect(await call('buyer', 'POST', '/api/v1/me/transactions', body)).toMatchObject({ status: 201, body: { payment_method: 'sepa' } })
  })

  it('cannot choose SEPA at checkout, online or face to face, and nothing changes', async () => {
    const { call } = await start()
    const { id } = await joinedSale(call)
    expect(await call('buyer', 'POST', `/api/v1/transactions/${id}/set_payment_method`, { payment_method: 'sepa' })).toMatchObject(
      notAllowed,
    )
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body).toMatchObject({ payment_method: 'card', charge: 340 })
    // The seller is refused for not being the buyer, whatever the method.
    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/set_payment_method`, { payment_method: 'sepa' })).body.code).toBe(
      'not_buyer',
    )
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/set_payment_method`, { payment_method: 'p24' })).status).toBe(200)

    const f2f = await joinedF2fSale(call)
    const deposit = await call('buyer', 'POST', `/api/v1/p2p/transactions/${f2f.id}/set_deposit_payment_method`, { payment_method: 'sepa' })
    expect(deposit).toMatchObject(notAllowed)
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${f2f.id}`)).body.payment_method).not.toBe('sepa')
  })

  it('cannot pay by the SEPA a company seller chose, and pays once they choose a card', async () => {
    const { app, call } = await start({ seller: true })
    const { id, joinCode } = await createSale(call, { payment_method: 'sepa' })
    await joinSale(call, joinCode)
    const intentsBefore = await app.services.db
      .selectFrom('transactions')
      .select('payment_intent_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(await call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)).toMatchObject(notAllowed)
    // No payment was opened at the provider.
    expect(
      await app.services.db.selectFrom('transactions').select('payment_intent_id').where('id', '=', id).executeTakeFirstOrThrow(),
    ).toEqual(intentsBefore)
    expect(intentsBefore.payment_intent_id).toBeNull()

    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/set_payment_method`, { payment_method: 'card' })).status).toBe(200)
    await payByCard(call, id)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('paid')
  })
})

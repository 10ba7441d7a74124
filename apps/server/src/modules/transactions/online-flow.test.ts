import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import {
  confirmDelivery,
  confirmPayment,
  createSale,
  joinedSale,
  joinSale,
  payByCard,
  type SaleCall,
  sepaProcessing,
  submitCard,
  track,
} from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { appPerTest } from '../../testing/app-per-test.ts'

const testApps = appPerTest()

/** Two people and an admin driving the real API in-process. */
/** `companyBuyer`: the buyer's confirmed address is in the company domain, so they may pay by SEPA (DESIGN §2). */
async function start(options: { companyBuyer?: boolean } = {}) {
  const clock = new TestClock(new Date('2026-11-22T10:00:00Z'))
  const testApp = await testApps.open({ clock, env: options.companyBuyer ? { COMPANY_EMAIL_DOMAIN: 'example.com' } : {} })
  const buyer = { firstName: 'Bea', emailVerified: options.companyBuyer ?? false }
  const tokens = await partyTokens(testApp.tokenFor, { seller: { firstName: 'Sam' }, buyer, stranger: {}, admin: { admin: true } })
  return { app: testApp.app, clock, call: apiCaller(testApp.app, tokens), tokens }
}

async function sellerCreatesAndBuyerJoins(call: SaleCall) {
  const { id, joinCode, quote, created } = await createSale(call)
  expect(quote).toEqual({
    price: 10_000,
    currency: 'eur',
    payment_method: 'card',
    charge: 340,
    charge_seller: 0,
    charge_buyer_client: 0,
    charge_seller_client: 0,
    charge_calculator_version: 1,
  })
  expect(created).toMatchObject({
    status: 'created',
    role: 'seller',
    join_code: expect.stringMatching(/^[A-Z2-9]{8}$/),
    charge_calculator_version: 1,
  })
  const preview = await call('buyer', 'GET', `/api/v1/transactions?join_code=${joinCode.toLowerCase()}`)
  expect(preview.body).toMatchObject({ id, creator_role: 'seller', creator_first_name: 'Sam', price: 10_000 })
  // What an integrator of the anchor API reads from the preview.
  expect(created.client_id).toBe('pactum-app')
  expect(preview.body).toMatchObject({
    charge_seller: 0,
    quantity: 1,
    client_id: 'pactum-app',
    is_payment_in_progress: false,
    created: created.created,
  })
  // The public verification page (decision 114): the same link for both parties, for the sale's whole life.
  expect(created.verify_url).toMatch(/^http:\/\/localhost:3999\/verify\/[A-Za-z0-9_-]{22}$/)
  expect(await joinSale(call, joinCode)).toMatchObject({ status: 'joined', role: 'buyer', join_code: null, verify_url: created.verify_url })
  return id
}

describe('an online sale end to end', () => {
  it("names the other party on each row of My transactions, by first name and the surname's initial", async () => {
    const { app, call } = await start()
    const joined = await sellerCreatesAndBuyerJoins(call)
    const { id: waiting } = await createSale(call)
    // The buyer's profile, made by their first call, gains a surname.
    await app.services.db.updateTable('users').set({ last_name: 'kowalska' }).where('email', '=', 'buyer@example.com').execute()
    const sellersRows = (await call('seller', 'GET', '/api/v1/me/transactions?view=summary')).body
    expect(sellersRows.map((row: { id: string; counterparty_name: string | null }) => [row.id, row.counterparty_name])).toEqual([
      [waiting, null],
      [joined, 'Bea K.'],
    ])
    // Only the initial leaves the server.
    expect(JSON.stringify(sellersRows)).not.toContain('owalska')
    const buyersRows = (await call('buyer', 'GET', '/api/v1/me/transactions?view=summary')).body
    expect(buyersRows).toEqual([expect.objectContaining({ id: joined, role: 'buyer', counterparty_name: 'Sam' })])
  })

  it('runs from creation to the seller being paid, with the books balanced', async () => {
    const { app, clock, call } = await start()
    const id = await sellerCreatesAndBuyerJoins(call)
    const { transaction } = await payByCard(call, id)
    expect(transaction).toMatchObject({ status: 'paid', paid: expect.any(String), tracking_deadline: '2026-11-26T10:00:00.000Z' })
    // The webhook brings the same news later: it must change nothing.
    await app.services.jobs.runDue()
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('paid')

    const tracked = await track(call, id, { carrier: 'dhl', tracking_code: 'jd0001234' })
    expect(tracked).toMatchObject({
      status: 'tracked',
      tracking: {
        carrier: 'dhl',
        tracking_code: 'JD0001234',
        tracking_url: 'https://www.dhl.com/global-en/home/tracking/tracking-parcel.html?submit=1&tracking-id=JD0001234',
      },
    })
    const delivered = await confirmDelivery(call, id)
    expect(delivered).toMatchObject({ status: 'delivered', complaint_period_deadline: '2026-11-23T10:00:00.000Z' })

    await clock.advance(app, 24 * 3600)
    const released = await call('seller', 'GET', `/api/v1/transactions/${id}`)
    expect(released.body).toMatchObject({ status: 'funds_released', amount_released: 10_000 })
    expect((await call('admin', 'GET', '/api/v1/admin/ledger/verify')).body).toEqual({ ok: true, breaches: [] })
    const outbox = await app.services.db.selectFrom('outbox').selectAll().execute()
    expect(outbox).toEqual([expect.objectContaining({ action: 'transfer', status: 'sent', idempotency_key: `${id}:transfer` })])
  })

  it('moves to delivered when the carrier says so, and a complaint stops the release', async () => {
    const { app, clock, call } = await start()
    const id = await sellerCreatesAndBuyerJoins(call)
    await payByCard(call, id)
    await track(call, id, { carrier: 'dhl', tracking_code: 'JD0001235' })
    await clock.advance(app, 3600)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('delivered')

    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/complain_with_description`, { description: 'x' })).body.code).toBe(
      'not_buyer',
    )
    const complained = await call('buyer', 'POST', `/api/v1/transactions/${id}/complain_with_description`, {
      description: 'The frame is cracked',
    })
    expect(complained.body).toMatchObject({ status: 'complained', complaint: { description: 'The frame is cracked' } })
    await clock.advance(app, 48 * 3600)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('complained')

    const refunded = await call('seller', 'POST', `/api/v1/transactions/${id}/accept_complaint`)
    expect(refunded.body).toMatchObject({ status: 'payment_refunded', amount_refunded: 10_340 })
    // Over, with the money back: further actions are told so in DESIGN §5's words.
    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/accept_complaint`)).body.code).toBe('already_cancelled')
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/complain_with_description`, { description: 'again' })).body.code).toBe(
      'already_cancelled',
    )
    await app.services.jobs.runDue()
    const outbox = await app.services.db.selectFrom('outbox').select(['action', 'status']).execute()
    expect(outbox).toEqual([{ action: 'refund', status: 'sent' }])
  })

  it('shows the carrier\'s "in transit" step in the history, between tracking added and delivered', async () => {
    const { app, clock, call } = await start()
    const id = await sellerCreatesAndBuyerJoins(call)
    await payByCard(call, id)
    const tracked = await track(call, id, { carrier: 'dhl', tracking_code: 'JD0001236' })
    expect(tracked).toMatchObject({ status: 'tracked', in_transit: null })

    // The sandbox tracker reports the parcel in transit after 30 s and delivered after 120 s.
    await clock.advance(app, 30)
    const inTransit = await call('buyer', 'GET', `/api/v1/transactions/${id}`)
    expect(inTransit.body).toMatchObject({ status: 'tracked', in_transit: '2026-11-22T10:00:30.000Z', delivered: null })
    const audit = await app.services.db
      .selectFrom('transaction_events')
      .select(['event', 'actor_kind', 'from_status', 'to_status'])
      .where('transaction_id', '=', id)
      .orderBy('id')
      .execute()
    expect(audit.at(-1)).toEqual({ event: 'carrier_in_transit', actor_kind: 'system', from_status: 'tracked', to_status: 'tracked' })

    await clock.advance(app, 90)
    const delivered = await call('seller', 'GET', `/api/v1/transactions/${id}`)
    expect(delivered.body).toMatchObject({
      status: 'delivered',
      tracked: tracked.tracked,
      in_transit: '2026-11-22T10:00:30.000Z',
      delivered: '2026-11-22T10:02:00.000Z',
    })
  })

  it('keeps a lost parcel tracked, with its "in transit" step', async () => {
    const { app, clock, call } = await start()
    const id = await sellerCreatesAndBuyerJoins(call)
    await payByCard(call, id)
    await track(call, id, { carrier: 'dhl', tracking_code: 'JD-LOST-7' })
    await clock.advance(app, 30)
    await clock.advance(app, 3600)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body).toMatchObject({
      status: 'tracked',
      in_transit: '2026-11-22T10:00:30.000Z',
    })
  })

  it('lets an admin settle a dispute, recording who and why', async () => {
    const { app, call } = await start()
    const id = await sellerCreatesAndBuyerJoins(call)
    await payByCard(call, id)
    await track(call, id, { carrier: 'ups', tracking_code: '1Z999' })
    await confirmDelivery(call, id)
    await call('buyer', 'POST', `/api/v1/transactions/${id}/complain_with_description`, { description: 'Not as described' })

    expect((await call('buyer', 'POST', `/api/v1/admin/transactions/${id}/release_funds?to=seller`, { reason: 'x' })).status).toBe(403)
    // The reason is required (docs/decisions/026-admin-actions-need-a-reason.md): none, or a blank one, is refused naming it.
    for (const payload of [undefined, {}, { reason: '  ' }]) {
      const refused = await call('admin', 'POST', `/api/v1/admin/transactions/${id}/release_funds?to=seller`, payload)
      expect(refused).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', details: { fields: [{ field: payload ? 'body.reason' : 'body' }] } },
      })
    }
    const noReason = await call('admin', 'POST', `/api/v1/admin/transactions/${id}/confirm_delivery`, {})
    expect(noReason).toMatchObject({ status: 400, body: { details: { fields: [{ field: 'body.reason' }] } } })
    const settled = await call('admin', 'POST', `/api/v1/admin/transactions/${id}/release_funds?to=seller`, {
      reason: 'Photos show it as described',
    })
    expect(settled.body).toMatchObject({ status: 'funds_released', role: null })
    const audit = await app.services.db.selectFrom('transaction_events').selectAll().where('actor_kind', '=', 'admin').execute()
    expect(audit).toEqual([
      expect.objectContaining({ event: 'release_funds', reason: 'Photos show it as described', to_status: 'funds_released' }),
    ])
    const list = await call('admin', 'GET', '/api/v1/admin/transactions?limit=1000')
    expect(list.body.map((t: { id: string }) => t.id)).toContain(id)
  })

  it('refunds the buyer when the seller misses the tracking deadline', async () => {
    const { app, clock, call } = await start()
    const id = await sellerCreatesAndBuyerJoins(call)
    await payByCard(call, id)
    await clock.advance(app, 96 * 3600)
    await clock.advance(app, 60)
    const after = await call('buyer', 'GET', `/api/v1/transactions/${id}`)
    expect(after.body).toMatchObject({ status: 'payment_refunded', amount_refunded: 10_340 })
    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/track`, { carrier: 'dhl', tracking_code: 'LATE1' })).status).toBe(409)
  })

  it('tells a declined card apart and lets the buyer retry', async () => {
    const { call } = await start()
    const id = await sellerCreatesAndBuyerJoins(call)
    const declined = await submitCard(call, id, '4000000000000002')
    expect(declined.confirmation).toMatchObject({ status: 'requires_payment_method', last_payment_error: { reason: 'card_declined' } })
    expect(
      (await call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: declined.intentId })).body.status,
    ).toBe('joined')
    const retried = await submitCard(call, id)
    expect(retried.intentId).toBe(declined.intentId)
    await confirmPayment(call, id, retried.intentId)
  })
})

describe('who may see and do what', () => {
  it('answers 404 to anyone who is not a party, and 401 without a token', async () => {
    const { app, call } = await start()
    const id = await sellerCreatesAndBuyerJoins(call)
    expect((await call('stranger', 'GET', `/api/v1/transactions/${id}`)).status).toBe(404)
    expect((await call('stranger', 'POST', `/api/v1/transactions/${id}/cancel`)).status).toBe(404)
    expect((await call('stranger', 'GET', '/api/v1/transactions/not-a-uuid')).status).toBe(404)
    expect((await app.inject({ url: `/api/v1/transactions/${id}` })).statusCode).toBe(401)
  })

  it('refuses the wrong role with 403 and the wrong state with 409', async () => {
    const { call } = await start()
    const id = await sellerCreatesAndBuyerJoins(call)
    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/pay`)).body.code).toBe('not_buyer')
    const track = await call('seller', 'POST', `/api/v1/transactions/${id}/track`, { carrier: 'dhl', tracking_code: 'AB123' })
    expect(track.status).toBe(409)
    expect(track.body).toMatchObject({ code: 'not_paid', details: { status: 'joined' } })
  })

  it('refuses a carrier it does not know, naming body.carrier', async () => {
    const { call } = await start()
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    for (const carrier of ['no-such-carrier', ' ']) {
      const refused = await call('seller', 'POST', `/api/v1/transactions/${id}/track`, { carrier, tracking_code: 'AB123' })
      expect(refused.status, carrier).toBe(400)
      expect(refused.body, carrier).toMatchObject({
        code: 'validation_failed',
        error: expect.stringMatching(/^body\.carrier: /),
        details: { fields: [{ field: 'body.carrier', message: expect.any(String) }] },
      })
    }
  })

  it('refuses a parcel already on another buyer’s sale, and lets sales to the same buyer share one', async () => {
    const { app, call, tokens } = await start()
    // The same seller selling to someone else: "buyer" is the stranger here.
    const toStranger = apiCaller(app, { seller: tokens.seller, buyer: tokens.stranger })
    const parcel = { carrier: 'dhl', tracking_code: 'JD0001234' }
    const first = (await joinedSale(call)).id
    const sameBuyer = (await joinedSale(call, { description: 'A second item in the same box' })).id
    const otherBuyer = (await joinedSale(toStranger)).id
    for (const id of [first, sameBuyer]) await payByCard(call, id)
    await payByCard(toStranger, otherBuyer)

    await track(call, first, parcel)
    expect(await track(call, sameBuyer, { ...parcel, tracking_code: 'jd0001234' })).toMatchObject({ status: 'tracked' })
    const refused = await toStranger('seller', 'POST', `/api/v1/transactions/${otherBuyer}/track`, parcel)
    expect(refused).toMatchObject({ status: 409, body: { code: 'tracking_code_in_use' } })
    expect((await toStranger('buyer', 'GET', `/api/v1/transactions/${otherBuyer}`)).body).toMatchObject({ status: 'paid', tracking: null })
    // Another carrier's parcel with the same number is another parcel.
    expect(await track(toStranger, otherBuyer, { carrier: 'ups', tracking_code: 'JD0001234' })).toMatchObject({ status: 'tracked' })
  })

  it('refuses to confirm a payment that is not this transaction’s, naming body.payment_intent_id', async () => {
    const { call } = await start()
    const { id } = await joinedSale(call)
    const other = await joinedSale(call)
    const { intentId: othersIntent } = await submitCard(call, other.id)
    for (const paymentIntentId of [othersIntent, 'pi_nothing', ' ']) {
      const refused = await call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: paymentIntentId })
      expect(refused.status, paymentIntentId).toBe(400)
      expect(refused.body, paymentIntentId).toMatchObject({
        code: 'validation_failed',
        error: expect.stringMatching(/^body\.payment_intent_id: /),
        details: { fields: [{ field: 'body.payment_intent_id', message: expect.any(String) }] },
      })
    }
  })

  it('keeps the creator out of their own transaction and hides the code from others', async () => {
    const { call } = await start()
    const lamp = await createSale(call, { price: 5000, description: 'Lamp' })
    expect((await call('seller', 'PUT', `/api/v1/transactions?join_code=${lamp.joinCode}`)).body.code).toBe('cannot_join_own_transaction')
    expect((await call('buyer', 'GET', '/api/v1/transactions?join_code=ZZZZZZZZ')).body.code).toBe('join_code_not_found')
    // A character outside the alphabet is never dropped to make a code that exists.
    const padded = `${lamp.joinCode.slice(0, 4)}O${lamp.joinCode.slice(4)}`
    expect(await call('buyer', 'GET', `/api/v1/transactions?join_code=${padded}`)).toMatchObject({
      status: 404,
      body: { code: 'join_code_not_found' },
    })
    expect(
      (await call('buyer', 'GET', `/api/v1/transactions?join_code=${lamp.joinCode.slice(0, 4)}-${lamp.joinCode.slice(4).toLowerCase()}`))
        .status,
    ).toBe(200)
  })

  it('refuses a join on terms the creator changed after the preview', async () => {
    const { call } = await start()
    const lamp = await createSale(call, { price: 5000, description: 'Lamp' })
    const code = lamp.joinCode
    const preview = (await call('buyer', 'GET', `/api/v1/transactions?join_code=${code}`)).body
    const requote = await call('seller', 'GET', '/api/v1/charge?price=9000&currency=eur&payment_method=card')
    const patched = await call('seller', 'PATCH', `/api/v1/transactions/${lamp.id}`, {
      price: 9000,
      charge: requote.body.charge,
      charge_calculator_version: requote.body.charge_calculator_version,
    })
    expect(patched.body.price).toBe(9000)
    // A new price needs the fee the seller was shown for it, named as any missing field is.
    expect((await call('seller', 'PATCH', `/api/v1/transactions/${lamp.id}`, { price: 9500 })).body).toMatchObject({
      code: 'validation_failed',
      error: expect.stringMatching(/^body\.charge: /),
      details: { fields: [{ field: 'body.charge', message: expect.any(String) }] },
    })
    const stale = await call(
      'buyer',
      'PUT',
      `/api/v1/transactions?join_code=${code}&price=${preview.price}&charge=${preview.charge}&currency=eur`,
    )
    expect(stale).toMatchObject({ status: 409, body: { code: 'incorrect_charge', details: { price: 9000 } } })
    const fresh = await call('buyer', 'PUT', `/api/v1/transactions?join_code=${code}&price=9000&charge=${requote.body.charge}&currency=eur`)
    expect(fresh.body).toMatchObject({ status: 'joined', price: 9000 })
  })

  it('answers a replayed join as the join did, once, and keeps everyone else out', async () => {
    const { app, call } = await start()
    const { id, joinCode } = await createSale(call)
    expect((await call('buyer', 'GET', `/api/v1/transactions?join_code=${joinCode}`)).body).toMatchObject({
      status: 'created',
      joined_by_you: false,
    })
    await joinSale(call, joinCode)
    const events = () => app.services.db.selectFrom('transaction_events').select('id').where('transaction_id', '=', id).execute()
    const outbox = () => app.services.db.selectFrom('outbox').select('id').execute()
    const [eventsBefore, outboxBefore] = [(await events()).length, (await outbox()).length]

    // The answer was lost on the way and the buyer's app asks again: the same answer, nothing recorded or sent twice.
    const replay = await call('buyer', 'PUT', `/api/v1/transactions?join_code=${joinCode}&price=10000&charge=340&currency=eur`)
    expect(replay).toMatchObject({ status: 200, body: { id, status: 'joined', role: 'buyer' } })
    expect((await events()).length).toBe(eventsBefore)
    expect((await outbox()).length).toBe(outboxBefore)
    expect((await call('buyer', 'GET', `/api/v1/transactions?join_code=${joinCode}`)).body).toMatchObject({
      id,
      status: 'joined',
      joined_by_you: true,
    })

    // For anyone else the code has done its work: it is no code any more.
    expect(await call('stranger', 'GET', `/api/v1/transactions?join_code=${joinCode}`)).toMatchObject({
      status: 404,
      body: { code: 'join_code_not_found' },
    })
    expect(await call('stranger', 'PUT', `/api/v1/transactions?join_code=${joinCode}`)).toMatchObject({
      status: 404,
      body: { code: 'join_code_not_found' },
    })
    expect(await call('seller', 'PUT', `/api/v1/transactions?join_code=${joinCode}`)).toMatchObject({
      status: 404,
      body: { code: 'join_code_not_found' },
    })
    expect((await call('stranger', 'GET', `/api/v1/transactions/${id}`)).status).toBe(404)
  })

  it('refuses a fee the user was not shown', async () => {
    const { call } = await start()
    const base = { role: 'buyer', price: 1234, currency: 'eur', description: 'Book', payment_method: 'card' }
    const wrongCharge = await call('buyer', 'POST', '/api/v1/me/transactions', { ...base, charge: 10, charge_calculator_version: 1 })
    expect(wrongCharge).toMatchObject({ status: 409, body: { code: 'incorrect_charge', details: { charge: 78 } } })
    const wrongVersion = await call('buyer', 'POST', '/api/v1/me/transactions', { ...base, charge: 78, charge_calculator_version: 2 })
    expect(wrongVersion).toMatchObject({ status: 409, body: { code: 'incorrect_calc_version', details: { charge_calculator_version: 1 } } })
    // The version is an integer, as the quote gives it; its old text form is no version.
    const textVersion = await call('buyer', 'POST', '/api/v1/me/transactions', {
      ...base,
      charge: 78,
      charge_calculator_version: '2026-11-1',
    })
    expect(textVersion).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: { fields: [{ field: 'body.charge_calculator_version' }] } },
    })
    const tooCheap = await call('buyer', 'POST', '/api/v1/me/transactions', {
      ...base,
      price: 99,
      charge: 43,
      charge_calculator_version: 1,
    })
    expect(tooCheap).toMatchObject({ status: 400, body: { code: 'price_too_low' } })
    const badCurrency = await call('buyer', 'POST', '/api/v1/me/transactions', {
      ...base,
      currency: 'jpy',
      charge: 97,
      charge_calculator_version: 1,
    })
    expect(badCurrency.body.code).toBe('unsupported_currency')
  })
})

describe('wrong-state answers name their reason', () => {
  it('refuses confirming delivery before tracking with tracking_not_added, for the buyer and an admin', async () => {
    const { call } = await start()
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    const early = await call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_delivery`)
    expect(early).toMatchObject({ status: 409, body: { code: 'tracking_not_added', details: { status: 'paid' } } })
    const byAdmin = await call('admin', 'POST', `/api/v1/admin/transactions/${id}/confirm_delivery`, { reason: 'Buyer phoned' })
    expect(byAdmin).toMatchObject({ status: 409, body: { code: 'tracking_not_added' } })
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('paid')
  })

  it('refuses accepting a complaint that was not made with not_complained', async () => {
    const { call } = await start()
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    await track(call, id, { carrier: 'dhl', tracking_code: 'JD0009001' })
    await confirmDelivery(call, id)
    const accepted = await call('seller', 'POST', `/api/v1/transactions/${id}/accept_complaint`)
    expect(accepted).toMatchObject({ status: 409, body: { code: 'not_complained', details: { status: 'delivered' } } })
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body).toMatchObject({ status: 'delivered', amount_refunded: 0 })
  })

  it('refuses an empty or blank complaint or order issue with empty_complaint_description', async () => {
    const { call } = await start()
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    for (const description of ['', '   ', ' \n\t ']) {
      const issue = await call('buyer', 'POST', `/api/v1/transactions/${id}/submit_order_issue`, { description })
      expect(issue, JSON.stringify(description)).toMatchObject({ status: 400, body: { code: 'empty_complaint_description' } })
    }
    await track(call, id, { carrier: 'dhl', tracking_code: 'JD0009002' })
    await confirmDelivery(call, id)
    for (const description of ['', '   ', ' \n\t ']) {
      const complaint = await call('buyer', 'POST', `/api/v1/transactions/${id}/complain_with_description`, { description })
      expect(complaint, JSON.stringify(description)).toMatchObject({ status: 400, body: { code: 'empty_complaint_description' } })
    }
    // The role and the state come first, as for every refusal.
    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/complain_with_description`, { description: '' })).body.code).toBe(
      'not_buyer',
    )
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body).toMatchObject({ status: 'delivered', complaint: null })
  })

  it('answers a list limit outside its range with invalid_limit: 50 for a user, 1000 for an admin', async () => {
    const { call } = await start()
    await createSale(call)
    for (const limit of ['51', '0', 'many']) {
      const mine = await call('seller', 'GET', `/api/v1/me/transactions?limit=${limit}`)
      expect(mine, limit).toMatchObject({
        status: 400,
        body: { code: 'invalid_limit', details: { fields: [{ field: 'querystring.limit' }] } },
      })
    }
    expect((await call('seller', 'GET', '/api/v1/p2p/me/transactions?limit=51')).body.code).toBe('invalid_limit')
    expect((await call('seller', 'GET', '/api/v1/me/transactions?limit=50')).body).toHaveLength(1)
    expect((await call('admin', 'GET', '/api/v1/admin/transactions?limit=1001')).body.code).toBe('invalid_limit')
    expect((await call('admin', 'GET', '/api/v1/admin/transactions?limit=1000')).body).toHaveLength(1)
    // A limit wrong with something else is a plain validation failure naming both.
    const both = await call('seller', 'GET', '/api/v1/me/transactions?limit=51&filter=everything')
    expect(both.body.code).toBe('validation_failed')
    expect(both.body.details.fields.map((field: { field: string }) => field.field).sort()).toEqual([
      'querystring.filter',
      'querystring.limit',
    ])
  })

  it('gives the open payment’s client secret only while it is due: not_paid before, already_paid after', async () => {
    const { call } = await start()
    const { id } = await joinedSale(call)
    expect(await call('buyer', 'GET', `/api/v1/transactions/${id}/stripe_client_secret`)).toMatchObject({
      status: 409,
      body: { code: 'not_paid' },
    })
    const opened = await call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}/stripe_client_secret`)).body).toEqual(opened.body)
    await payByCard(call, id)
    const after = await call('buyer', 'GET', `/api/v1/transactions/${id}/stripe_client_secret`)
    expect(after).toMatchObject({ status: 409, body: { code: 'already_paid', details: { status: 'paid' } } })
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}/stripe_client_secret`)).body.code).toBe('not_buyer')
  })

  it('holds cancelling while a SEPA payment is processing with payment_in_progress', async () => {
    const { call } = await start({ companyBuyer: true })
    const { id } = await joinedSale(call)
    await sepaProcessing(call, id)
    for (const who of ['buyer', 'seller'] as const) {
      expect(await call(who, 'POST', `/api/v1/transactions/${id}/cancel`)).toMatchObject({
        status: 409,
        body: { code: 'payment_in_progress' },
      })
    }
  })
})

describe('my transactions', () => {
  it('lists newest first with keyset pagination, filters and search', async () => {
    const { call } = await start()
    const ids: string[] = []
    for (const description of ['Old chair', 'Red kettle', 'New sofa']) {
      ids.push((await createSale(call, { price: 2000, currency: 'gbp', description })).id)
    }
    const page1 = await call('seller', 'GET', '/api/v1/me/transactions?limit=2')
    expect(page1.body.map((t: { id: string }) => t.id)).toEqual([ids[2], ids[1]])
    const page2 = await call('seller', 'GET', `/api/v1/me/transactions?limit=2&after_id=${ids[1]}`)
    expect(page2.body.map((t: { id: string }) => t.id)).toEqual([ids[0]])
    expect((await call('seller', 'GET', '/api/v1/me/transactions?search=kettle')).body).toHaveLength(1)
    expect((await call('seller', 'GET', '/api/v1/me/transactions?filter=waiting')).body).toHaveLength(3)
    expect((await call('seller', 'GET', '/api/v1/me/transactions?filter=inputRequired')).body).toHaveLength(0)
    expect((await call('seller', 'GET', '/api/v1/me/transactions?after_id=nope')).body.code).toBe('invalid_after_id')
    expect((await call('seller', 'GET', '/api/v1/me/transactions?limit=51')).status).toBe(400)
    expect((await call('buyer', 'GET', '/api/v1/me/transactions')).body).toEqual([])
  })

  it('says paid as soon as the buyer asks again after the card went through, before any webhook or confirmation', async () => {
    const { call } = await start()
    const { id } = await joinedSale(call)
    // The provider took the money; neither its webhook nor the browser's confirmation has reached Pactum.
    const { intentId } = await submitCard(call, id)
    const again = await call('buyer', 'POST', `/api/v1/transactions/${id}/pay`)
    expect(again.body.code).toBe('already_paid')
    // And it is so: the same request took the provider's news.
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body).toMatchObject({
      status: 'paid',
      available_actions: ['extend_tracking_deadline', 'submit_order_issue'],
    })
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/confirm_payment`, { payment_intent_id: intentId })).body.status).toBe(
      'paid',
    )
  })
})

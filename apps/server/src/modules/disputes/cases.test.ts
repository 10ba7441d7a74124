import { describe, expect, it } from 'vitest'
import { appPerTest } from '../../testing/app-per-test.ts'
import { openWithSaleCast } from '../../testing/sale-cast.ts'
import { complainAfterDelivery, joinedSale, payByCard, track } from '../../testing/sale-steps.ts'

const testApps = appPerTest()

/** A sale of 100.00 (card fee 3.40) delivered and complained about, through the real API; the ledger is checked after each test. */
async function complainedSale() {
  const { app, clock, call } = await openWithSaleCast(testApps)
  const { id } = await joinedSale(call)
  await complainAfterDelivery(call, id)
  return { app, clock, call, id }
}

describe('a case through the API', () => {
  it('settles on a counter-offer at 30/70: one split entry, a partial refund and a partial release', async () => {
    const { app, call, id } = await complainedSale()
    const opened = await call('seller', 'GET', `/api/v1/transactions/${id}/case`)
    expect(opened.body).toMatchObject({
      state: 'open',
      reason: 'damaged',
      description: 'The frame arrived cracked',
      price_in_dispute: 10_000,
      currency: 'eur',
      response_deadline: '2026-11-26T10:00:00.000Z',
      summary_due: '2026-11-26T10:00:00.000Z',
      final_answer_due: '2027-01-18T10:00:00.000Z',
      offers: [],
    })
    expect((await call('stranger', 'GET', `/api/v1/transactions/${id}/case`)).status).toBe(404)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.available_actions).toEqual([
      'propose_settlement',
      'escalate_case',
    ])

    const offer = await call('buyer', 'POST', `/api/v1/transactions/${id}/settlement_offers`, {
      refund_to_buyer: 10_000,
      release_to_seller: 0,
      note: 'Full refund, please',
    })
    expect(offer.status).toBe(200)
    const bad = await call('seller', 'POST', `/api/v1/transactions/${id}/settlement_offers`, {
      refund_to_buyer: 3_000,
      release_to_seller: 6_000,
    })
    expect(bad.body.code).toBe('split_not_price')
    const counter = await call('seller', 'POST', `/api/v1/transactions/${id}/settlement_offers`, {
      refund_to_buyer: 3_000,
      release_to_seller: 7_000,
      note: 'A third back for the frame',
    })
    expect(counter.body.available_actions).toEqual(['accept_complaint', 'propose_settlement', 'escalate_case'])
    const { offers } = (await call('buyer', 'GET', `/api/v1/transactions/${id}/case`)).body as { offers: { id: string; outcome: string }[] }
    expect(offers.map((o) => o.outcome)).toEqual(['replaced', 'open'])
    const [first, open] = offers
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/settlement_offers/${first?.id}/accept`)).body.code).toBe(
      'offer_not_open',
    )
    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/settlement_offers/${open?.id}/accept`)).body.code).toBe(
      'cannot_answer_own_offer',
    )
    const settled = await call('buyer', 'POST', `/api/v1/transactions/${id}/settlement_offers/${open?.id}/accept`)
    // 30.00 back with 30 % of the 3.40 fee; 70.00 to the seller, who pays no fee here.
    expect(settled.body).toMatchObject({ status: 'funds_released', amount_refunded: 3_102, amount_released: 7_000 })

    await app.services.jobs.runDue()
    const entries = await app.services.db.selectFrom('ledger_entries').select('kind').where('transaction_id', '=', id).execute()
    expect(entries.map((e) => e.kind).sort()).toEqual(['hold', 'split'])
    const outbox = await app.services.db.selectFrom('outbox').select(['action', 'status']).where('transaction_id', '=', id).execute()
    expect(outbox.sort((a, b) => a.action.localeCompare(b.action))).toEqual([
      { action: 'refund', status: 'sent' },
      { action: 'transfer', status: 'sent' },
    ])
    const mails = await app.services.db.selectFrom('notifications').select(['template']).where('transaction_id', '=', id).execute()
    expect(mails.map((m) => m.template)).toEqual(expect.arrayContaining(['settlement_offered', 'case_settled']))
    expect((await call('admin', 'GET', '/api/v1/admin/ledger/verify')).body).toEqual({ ok: true, breaches: [] })
  })

  it('goes to the admins’ queue when the response window ends, and an admin decides a split with a reason both parties get', async () => {
    const { app, clock, call, id } = await complainedSale()
    expect((await call('admin', 'GET', '/api/v1/admin/cases')).body).toEqual([])
    await clock.advance(app, 3 * 86_400)
    const queue = await call('admin', 'GET', '/api/v1/admin/cases')
    expect(queue.body).toEqual([
      expect.objectContaining({ transaction_id: id, state: 'escalated', escalated_at: '2026-11-26T10:00:00.000Z' }),
    ])
    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/escalate`)).body.code).toBe('case_already_escalated')

    const detail = await call('admin', 'GET', `/api/v1/admin/transactions/${id}`)
    expect(detail.body.case).toMatchObject({ description: 'The frame arrived cracked', reason: 'damaged', state: 'escalated' })
    const noReason = await call('admin', 'POST', `/api/v1/admin/transactions/${id}/decide`, {
      refund_to_buyer: 5_000,
      release_to_seller: 5_000,
    })
    expect(noReason.status).toBe(400)
    const decided = await call('admin', 'POST', `/api/v1/admin/transactions/${id}/decide`, {
      refund_to_buyer: 5_000,
      release_to_seller: 5_000,
      reason: 'Photos show a crack that the listing did not mention',
    })
    expect(decided.body).toMatchObject({ status: 'funds_released', amount_refunded: 5_170, amount_released: 5_000 })
    expect((await call('admin', 'GET', '/api/v1/admin/cases')).body).toEqual([])
    await app.services.jobs.runDue()
    const mails = await app.services.db
      .selectFrom('notifications')
      .select(['template', 'recipient_role'])
      .where('transaction_id', '=', id)
      .where('template', '=', 'case_decided')
      .execute()
    expect(mails).toHaveLength(2)
  })

  it('lets the buyer give the seller more time to ship', async () => {
    const { testApp, clock, call } = await openWithSaleCast(testApps)
    const { id } = await joinedSale(call)
    const { transaction } = await payByCard(call, id)
    const extended = await call('buyer', 'POST', `/api/v1/transactions/${id}/extend_tracking_deadline`, { hours: 48 })
    expect(extended.body.tracking_deadline).toBe(new Date(Date.parse(transaction.tracking_deadline) + 48 * 3_600_000).toISOString())
    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/extend_tracking_deadline`, { hours: 48 })).body.code).toBe('not_buyer')
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/extend_tracking_deadline`, { hours: 0 })).status).toBe(400)
    // The old deadline passes without cancelling the sale.
    await clock.advance(testApp.app, 4 * 86_400 + 3_600)
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('paid')
  })

  it('lets the seller ask the buyer to confirm receipt once shipped, one e-mail a day at most', async () => {
    const { testApp, clock, call } = await openWithSaleCast(testApps)
    const ask = () => call('seller', 'POST', `/api/v1/transactions/${id}/request_receipt_confirmation`)
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    expect((await ask()).body.code).toBe('tracking_not_added')
    await track(call, id, { carrier: 'dhl', tracking_code: 'JD0009002' })
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.available_actions).toContain('request_receipt_confirmation')

    const asked = await ask()
    expect(asked.status).toBe(200)
    expect(asked.body.receipt_confirmation_requested_at).toBe('2026-11-23T10:00:00.000Z')
    expect(asked.body.available_actions).not.toContain('request_receipt_confirmation')
    expect((await call('buyer', 'POST', `/api/v1/transactions/${id}/request_receipt_confirmation`)).body.code).toBe('not_seller')
    const again = await ask()
    expect([again.status, again.body.code]).toEqual([429, 'receipt_confirmation_requested_recently'])

    await clock.advance(testApp.app, 86_400)
    expect((await ask()).status).toBe(200)
    await testApp.app.services.jobs.runDue()
    const mails = await testApp.app.services.db
      .selectFrom('notifications')
      .select(['recipient_role'])
      .where('transaction_id', '=', id)
      .where('template', '=', 'receipt_confirmation_requested')
      .execute()
    expect(mails).toEqual([{ recipient_role: 'buyer' }, { recipient_role: 'buyer' }])
    const history = await testApp.app.services.db
      .selectFrom('transaction_events')
      .select('actor_kind')
      .where('transaction_id', '=', id)
      .where('event', '=', 'request_receipt_confirmation')
      .execute()
    expect(history).toEqual([{ actor_kind: 'seller' }, { actor_kind: 'seller' }])

    // The simulated carrier has delivered the parcel by now; once the buyer complains, asking is over.
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('delivered')
    await call('buyer', 'POST', `/api/v1/transactions/${id}/complain_with_description`, { description: 'Broken', reason: 'damaged' })
    expect((await ask()).body.code).toBe('already_complained')
  })
})

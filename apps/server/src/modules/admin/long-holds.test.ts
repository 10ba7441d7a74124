import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { complainAfterDelivery, confirmDelivery, joinedSale, payByCard, track } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'

const testApps = appPerTest()
const day = 86_400

async function start(env: Record<string, string> = {}) {
  const clock = new TestClock(new Date('2026-09-01T10:00:00Z'))
  const testApp = await testApps.open({ clock, env: { COMPLAINT_PERIOD_SECONDS: '60', ...env } })
  const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, admin: { admin: true } })
  return { app: testApp.app, clock, call: apiCaller(testApp.app, tokens) }
}

describe('GET /admin/long_holds (issue 34: long holds watched)', () => {
  it('lists money held past HOLD_ALERT_DAYS with its status and case, oldest first, and nothing released', async () => {
    const { app, clock, call } = await start()
    // Released: its escrow is back at zero, however old.
    const released = await joinedSale(call)
    await payByCard(call, released.id)
    await track(call, released.id, { carrier: 'ups', tracking_code: '1Z999' })
    await confirmDelivery(call, released.id)
    await clock.advance(app, 61)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${released.id}`)).body.status).toBe('funds_released')

    // A complaint: the case waits for the seller's answer.
    const complained = await joinedSale(call)
    await complainAfterDelivery(call, complained.id)
    await clock.moveBy(day)
    // Paid a day later (the release above ran its 61 s window first), and never shipped (nothing runs the timers while the clock is moved: a sale stuck).
    const paid = await joinedSale(call)
    await payByCard(call, paid.id)

    // Held exactly 60 days is not yet longer than 60; an hour more is.
    await clock.moveBy(59 * day)
    expect((await call('admin', 'GET', '/api/v1/admin/long_holds')).body.holds).toEqual([])
    await clock.moveBy(3600)
    const early = await call('admin', 'GET', '/api/v1/admin/long_holds')
    expect(early.status).toBe(200)
    expect(early.body).toEqual({ alert_days: 60, holds: [expect.objectContaining({ transaction_id: complained.id, days_held: 60 })] })

    await clock.moveBy(2 * day)
    const later = await call('admin', 'GET', '/api/v1/admin/long_holds')
    expect(later.body.holds).toEqual([
      expect.objectContaining({ transaction_id: complained.id, type: 'online', status: 'complained', case: 'with_seller', days_held: 62 }),
      expect.objectContaining({ transaction_id: paid.id, type: 'online', status: 'paid', case: null, days_held: 61, currency: 'eur' }),
    ])
    const paidRow = later.body.holds[1]
    // What escrow holds: everything the buyer paid, the fee with the price.
    const view = (await call('buyer', 'GET', `/api/v1/transactions/${paid.id}`)).body
    expect(paidRow.amount).toBe(view.price + view.charge)
    expect(paidRow.held_since).toBe('2026-09-02T10:01:01.000Z')
  })

  it('takes its threshold from HOLD_ALERT_DAYS, and is the admins’ alone', async () => {
    const { clock, call } = await start({ HOLD_ALERT_DAYS: '3' })
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    await clock.moveBy(4 * day)
    const answer = await call('admin', 'GET', '/api/v1/admin/long_holds')
    expect(answer.body.alert_days).toBe(3)
    expect(answer.body.holds.map((hold: { transaction_id: string }) => hold.transaction_id)).toEqual([id])
    expect((await call('seller', 'GET', '/api/v1/admin/long_holds')).status).toBe(403)
  })
})

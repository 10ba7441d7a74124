import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { confirmDelivery, joinedSale, payByCard, submitCard, track } from '../../testing/sale-steps.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { appPerTest } from '../../testing/app-per-test.ts'

const testApps = appPerTest()
const days = ['2026-11-20', '2026-11-21']

async function start(at = new Date('2026-11-20T10:00:00Z')) {
  const clock = new TestClock(at)
  const testApp = await testApps.open({ clock })
  const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, admin: { admin: true } })
  return { app: testApp.app, clock, call: apiCaller(testApp.app, tokens) }
}

type Started = Awaited<ReturnType<typeof start>>

/** A sale released to the seller (a charge and a transfer) and one cancelled after payment (a charge and a refund). */
async function completedSales({ app, clock, call }: Started) {
  const released = await joinedSale(call)
  await payByCard(call, released.id)
  await track(call, released.id, { carrier: 'dhl', tracking_code: 'JD0001234' })
  await confirmDelivery(call, released.id)
  const refunded = await joinedSale(call, { price: 5000 })
  await payByCard(call, refunded.id)
  expect((await call('seller', 'POST', `/api/v1/transactions/${refunded.id}/cancel`)).status).toBe(200)
  await clock.advance(app, 24 * 3600)
  // The sandbox settles the refund a while after it is made (on the 21st).
  await clock.advance(app, 3600)
  expect((await call('seller', 'GET', `/api/v1/transactions/${released.id}`)).body.status).toBe('funds_released')
  expect((await call('seller', 'GET', `/api/v1/transactions/${refunded.id}`)).body.status).toBe('payment_refunded')
  return { released: released.id, refunded: refunded.id }
}

async function reconcileAll(call: Started['call']) {
  const differences = []
  for (const date of days) {
    const run = await call('admin', 'POST', '/api/v1/admin/reconciliation/runs', { date })
    expect(run.status).toBe(200)
    differences.push(...run.body.differences)
  }
  return differences
}

describe('daily reconciliation', () => {
  it('finds no difference on clean days: charges, a refund and a transfer all match the sandbox balance', async () => {
    const started = await start()
    await completedSales(started)
    expect(await reconcileAll(started.call)).toEqual([])
    const day = await started.call('admin', 'GET', '/api/v1/admin/reconciliation?date=2026-11-20')
    expect(day.body).toMatchObject({ date: '2026-11-20', reconciled: true, provider: 'sandbox', differences: [] })
    // Both payments on the 20th; the refund and the release went out when the jobs ran on the 21st.
    expect(day.body.totals.ledger).toEqual([expect.objectContaining({ currency: 'eur', charged: 15530, refunded: 0 })])
    expect(day.body.totals.provider).toEqual([expect.objectContaining({ currency: 'eur', charged: 15530, refunded: 0, fees: 0 })])
    const next = await started.call('admin', 'GET', '/api/v1/admin/reconciliation?date=2026-11-21')
    const movedOut = { currency: 'eur', charged: 0, refunded: 5190, transferred: 10000 }
    expect(next.body.totals.ledger).toEqual([expect.objectContaining(movedOut)])
    expect(next.body.totals.provider).toEqual([expect.objectContaining(movedOut)])
  })

  it('matches card disputes (withdrawn, reinstated) and a recovery from the seller with the provider (decision 109)', async () => {
    const started = await start()
    const { released, refunded } = await completedSales(started)
    const { app, clock, call } = started
    const lost = await call('admin', 'POST', '/api/v1/admin/sandbox/disputes', { transaction_id: released })
    const won = await call('admin', 'POST', '/api/v1/admin/sandbox/disputes', { transaction_id: refunded })
    await clock.advance(app, 60)
    await call('admin', 'POST', `/api/v1/admin/sandbox/disputes/${lost.body.id}/decide`, { outcome: 'lost' })
    await call('admin', 'POST', `/api/v1/admin/sandbox/disputes/${won.body.id}/decide`, { outcome: 'won' })
    await clock.advance(app, 60)
    const recovered = await call('admin', 'POST', `/api/v1/admin/chargebacks/${lost.body.id}/recover`, { amount: 2_500, reason: 'fraud' })
    expect(recovered.status).toBe(200)
    await clock.advance(app, 60)
    expect(await reconcileAll(call)).toEqual([])
    const day = await call('admin', 'GET', '/api/v1/admin/reconciliation?date=2026-11-21')
    // Withdrawn 10340 + 5190, of which 5190 reinstated; 10000 transferred less the 2500 taken back.
    const disputed = { currency: 'eur', disputed: 10_340, transferred: 7_500 }
    expect(day.body.totals.ledger).toEqual([expect.objectContaining(disputed)])
    expect(day.body.totals.provider).toEqual([expect.objectContaining(disputed)])
  })

  it('reconciles yesterday by itself two hours after midnight (UTC), and the next day after that', async () => {
    const { app, clock, call } = await start()
    await joinedSale(call).then(({ id }) => payByCard(call, id))
    expect((await call('admin', 'GET', '/api/v1/admin/reconciliation?date=2026-11-20')).body.reconciled).toBe(false)
    await clock.advance(app, 15 * 3600) // 2026-11-21T01:00Z
    expect((await call('admin', 'GET', '/api/v1/admin/reconciliation?date=2026-11-20')).body.reconciled).toBe(false)
    await clock.advance(app, 3600 + 60)
    expect((await call('admin', 'GET', '/api/v1/admin/reconciliation?date=2026-11-20')).body).toMatchObject({
      reconciled: true,
      reconciled_at: '2026-11-21T02:01:00.000Z',
      differences: [],
      totals: { ledger: [expect.objectContaining({ charged: 10340 })], provider: [expect.objectContaining({ charged: 10340 })] },
    })
    // The next day's run is waiting already.
    await clock.advance(app, 24 * 3600)
    expect((await call('admin', 'GET', '/api/v1/admin/reconciliation?date=2026-11-21')).body.reconciled).toBe(true)
  })

  it('says a day not yet compared is not reconciled', async () => {
    const { call } = await start()
    expect((await call('admin', 'GET', '/api/v1/admin/reconciliation?date=2026-10-01')).body).toMatchObject({
      reconciled: false,
      differences: [],
    })
    expect((await call('admin', 'GET', '/api/v1/admin/reconciliation?date=2026-02-30')).status).toBe(400)
  })

  it('reports each injected difference with both sides', async () => {
    const started = await start()
    const { released, refunded } = await completedSales(started)
    const db = started.app.services.db
    const transfer = await db.selectFrom('sandbox_transfers').selectAll().where('transaction_id', '=', released).executeTakeFirstOrThrow()
    const refundedIntent = await db
      .selectFrom('transactions')
      .select('payment_intent_id')
      .where('id', '=', refunded)
      .executeTakeFirstOrThrow()
    const refund = await db
      .selectFrom('sandbox_refunds')
      .selectAll()
      .where('payment_intent_id', '=', refundedIntent.payment_intent_id as string)
      .executeTakeFirstOrThrow()
    // The provider transferred less than the ledger released; lost the refund; charged in another currency; and moved money Pactum never asked for.
    await db.updateTable('sandbox_transfers').set({ amount: 9000 }).where('id', '=', transfer.id).execute()
    await db.deleteFrom('sandbox_refunds').where('id', '=', refund.id).execute()
    await db.updateTable('sandbox_payment_intents').set({ currency: 'gbp' }).where('id', '=', refund.payment_intent_id).execute()
    await db
      .insertInto('sandbox_transfers')
      .values({
        id: 'tr_stray',
        destination_account: transfer.destination_account,
        amount: 700,
        currency: 'eur',
        transaction_id: released,
        created_at: transfer.created_at,
      })
      .execute()

    const found = await reconcileAll(started.call)
    const brief = found.map((difference: Record<string, unknown>) => [
      difference.kind,
      difference.movement,
      difference.provider_id,
      difference.ledger,
      difference.provider,
    ])
    expect(brief).toHaveLength(4)
    expect(brief).toEqual(
      expect.arrayContaining([
        ['amount_mismatch', 'transfer', transfer.id, { amount: 10000, currency: 'eur' }, { amount: 9000, currency: 'eur' }],
        ['missing_at_provider', 'refund', refund.id, { amount: 5190, currency: 'eur' }, null],
        ['currency_mismatch', 'charge', refund.payment_intent_id, { amount: 5190, currency: 'eur' }, { amount: 5190, currency: 'gbp' }],
        ['missing_in_ledger', 'transfer', 'tr_stray', null, { amount: 700, currency: 'eur' }],
      ]),
    )
    expect(found.every((difference: { status: string }) => difference.status === 'open')).toBe(true)
  })

  it('lets an admin explain a difference once, keeps the explanation through a re-run, and drops what a re-run no longer finds', async () => {
    const started = await start()
    const { call, app } = started
    const { released } = await completedSales(started)
    const db = app.services.db
    const transfer = await db.selectFrom('sandbox_transfers').selectAll().where('transaction_id', '=', released).executeTakeFirstOrThrow()
    await db.updateTable('sandbox_transfers').set({ amount: 9000 }).where('id', '=', transfer.id).execute()
    await db
      .insertInto('sandbox_transfers')
      .values({
        id: 'tr_stray',
        destination_account: transfer.destination_account,
        amount: 700,
        currency: 'eur',
        transaction_id: released,
        created_at: transfer.created_at,
      })
      .execute()
    const found = await reconcileAll(call)
    const stray = found.find((difference: { provider_id: string }) => difference.provider_id === 'tr_stray')
    const path = `/api/v1/admin/reconciliation/differences/${stray.id}/explain`

    expect(await call('seller', 'POST', path, { reason: 'x' })).toMatchObject({ status: 403, body: { code: 'not_admin' } })
    expect(await call('admin', 'POST', path, { reason: '  ' })).toMatchObject({ status: 400 })
    const explained = await call('admin', 'POST', path, { reason: 'Test transfer made by hand in the dashboard' })
    expect(explained).toMatchObject({
      status: 200,
      body: {
        id: stray.id,
        status: 'explained',
        reason: 'Test transfer made by hand in the dashboard',
        explained_at: '2026-11-21T11:00:00.000Z',
      },
    })
    expect(explained.body.explained_by).toMatch(/@/)
    expect(await call('admin', 'POST', path, { reason: 'again' })).toMatchObject({
      status: 409,
      body: { code: 'difference_already_explained' },
    })
    expect(
      await call('admin', 'POST', '/api/v1/admin/reconciliation/differences/00000000-0000-4000-8000-000000000000/explain', { reason: 'x' }),
    ).toMatchObject({ status: 404, body: { code: 'not_found' } })

    // The provider's record is put right: the open difference goes, the explained one stays.
    await db.updateTable('sandbox_transfers').set({ amount: transfer.amount }).where('id', '=', transfer.id).execute()
    const again = await reconcileAll(call)
    expect(again.map((difference: { provider_id: string; status: string }) => [difference.provider_id, difference.status])).toEqual([
      ['tr_stray', 'explained'],
    ])
  })
})

describe('a payment booked just after midnight', () => {
  /**
   * The provider took the payment ten seconds before midnight (UTC) of the
   * 20th; its webhook, and so the ledger's hold, came twenty seconds later,
   * on the 21st (the buyer's page never told Pactum).
   */
  async function lateBooked({ app, clock, call }: Started) {
    const { id } = await joinedSale(call)
    const { intentId } = await submitCard(call, id)
    await clock.advance(app, 20)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('paid')
    return intentId
  }

  async function run(call: Started['call'], date: string) {
    const run = await call('admin', 'POST', '/api/v1/admin/reconciliation/runs', { date })
    expect(run.status).toBe(200)
    return run.body
  }

  it('is compared on the day the provider took it, and left out of the next day', async () => {
    const started = await start(new Date('2026-11-20T23:59:50Z'))
    const intentId = await lateBooked(started)
    const db = started.app.services.db
    const provider = await db
      .selectFrom('sandbox_payment_intents')
      .select('succeeded_at')
      .where('id', '=', intentId)
      .executeTakeFirstOrThrow()
    expect(provider.succeeded_at).toEqual(new Date('2026-11-20T23:59:50Z'))
    const hold = await db.selectFrom('ledger_entries').select('created_at').where('kind', '=', 'hold').executeTakeFirstOrThrow()
    expect(hold.created_at).toEqual(new Date('2026-11-21T00:00:10Z'))

    const before = await run(started.call, '2026-11-20')
    expect(before.differences).toEqual([])
    expect(before.totals.ledger).toEqual([expect.objectContaining({ currency: 'eur', charged: 10_340 })])
    const after = await run(started.call, '2026-11-21')
    // Not "only in the ledger" on the 21st: it was reconciled on the 20th.
    expect(after.differences).toEqual([])
    expect(after.totals.ledger).toEqual([])
    expect(after.totals.provider).toEqual([])
  })

  it('still reports a movement of the day that the provider shows on neither that day nor the day before', async () => {
    const started = await start(new Date('2026-11-20T23:59:50Z'))
    const excused = await lateBooked(started)
    // Two more payments on the 21st, booked at once; then the provider's records of them are changed:
    // one it never took, the other dated two days before it was booked (the look back is one day).
    const missing = await joinedSale(started.call, { price: 5_000 }).then(({ id }) => payByCard(started.call, id))
    const early = await joinedSale(started.call, { price: 2_000 }).then(({ id }) => payByCard(started.call, id))
    const db = started.app.services.db
    await db.updateTable('sandbox_payment_intents').set({ succeeded_at: null }).where('id', '=', missing.intentId).execute()
    await db
      .updateTable('sandbox_payment_intents')
      .set({ succeeded_at: new Date('2026-11-19T12:00:00Z') })
      .where('id', '=', early.intentId)
      .execute()

    expect((await run(started.call, '2026-11-20')).differences).toEqual([])
    const found = await run(started.call, '2026-11-21')
    expect(
      found.differences.map((difference: Record<string, unknown>) => [difference.kind, difference.movement, difference.provider_id]),
    ).toEqual(
      expect.arrayContaining([
        ['missing_at_provider', 'charge', missing.intentId],
        ['missing_at_provider', 'charge', early.intentId],
      ]),
    )
    expect(found.differences).toHaveLength(2)
    expect(found.differences.map((difference: { provider_id: string }) => difference.provider_id)).not.toContain(excused)
  })
})

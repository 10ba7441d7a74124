import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { verifyLedger } from '../../ledger/verify-ledger.ts'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { joinedSale, payByCard } from '../../testing/sale-steps.ts'
import { refillSandboxWriteBudget, spendSandboxWriteBudget } from '../../testing/sandbox-write-budget.ts'
import { TestClock } from '../../testing/test-clock.ts'

const testApps = appPerTest()

describe('the outbox when the provider refuses (issues 36 and 37)', () => {
  it('meets the provider’s 429 by trying the same refund again later, once, with nothing lost or doubled', async () => {
    const clock = new TestClock()
    const testApp = await testApps.open({ clock, env: { SANDBOX_MAX_REQUESTS_PER_SECOND: '5' } })
    const { db } = testApp.app.services
    const call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: {}, buyer: {} }))
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    // The provider's budget for now is spent (by other callers of the same account, say).
    await spendSandboxWriteBudget(db, 60_000)
    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/cancel`)).status).toBe(200)
    await clock.advance(testApp.app, 1)
    const refused = await db
      .selectFrom('outbox')
      .select(['status', 'attempts', 'last_error'])
      .where('transaction_id', '=', id)
      .executeTakeFirstOrThrow()
    expect(refused).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('rate limit') })
    expect(await db.selectFrom('sandbox_refunds').select('id').execute()).toEqual([])

    // A second later the provider takes calls again; pg-boss hands the failed job back after its retry delay.
    await refillSandboxWriteBudget(db)
    for (let wait = 0; wait < 60; wait++) {
      await clock.advance(testApp.app, 1)
      const row = await db.selectFrom('outbox').select('status').where('transaction_id', '=', id).executeTakeFirstOrThrow()
      if (row.status === 'sent') break
      await sleep(500)
    }
    expect(await db.selectFrom('outbox').select(['status', 'attempts']).where('transaction_id', '=', id).executeTakeFirstOrThrow()).toEqual(
      {
        status: 'sent',
        attempts: 2,
      },
    )
    expect(await db.selectFrom('sandbox_refunds').select('amount').execute()).toEqual([{ amount: 10_340 }])
    await clock.advance(testApp.app, 10)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.status).toBe('payment_refunded')
    expect(await verifyLedger(db)).toEqual([])
  })

  it('leaves a call whose job gave up pending, and an admin sends it again once, with its key', async () => {
    const clock = new TestClock()
    const testApp = await testApps.open({ clock, env: { SANDBOX_MAX_REQUESTS_PER_SECOND: '5' } })
    const { db } = testApp.app.services
    const call = apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, admin: { admin: true } }))
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    await spendSandboxWriteBudget(db, 60_000)
    expect((await call('seller', 'POST', `/api/v1/transactions/${id}/cancel`)).status).toBe(200)
    await clock.advance(testApp.app, 1)
    // As pg-boss leaves it after the last of its retries: the job gone, the row pending with its error.
    await sql`delete from pgboss.job where name = 'outbox-send'`.execute(db)
    await refillSandboxWriteBudget(db)
    await clock.advance(testApp.app, 3600)
    const row = await db.selectFrom('outbox').select(['id', 'status']).where('transaction_id', '=', id).executeTakeFirstOrThrow()
    expect(row.status).toBe('pending')

    expect((await call('buyer', 'POST', `/api/v1/admin/outbox/${row.id}/retry`)).status).toBe(403)
    expect((await call('admin', 'POST', `/api/v1/admin/outbox/${row.id}/retry`)).body).toEqual({
      id: row.id,
      status: 'pending',
      requeued: true,
    })
    await clock.advance(testApp.app, 1)
    expect(await db.selectFrom('outbox').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).toEqual({ status: 'sent' })
    // Sent: asking again changes nothing.
    expect((await call('admin', 'POST', `/api/v1/admin/outbox/${row.id}/retry`)).body).toEqual({
      id: row.id,
      status: 'sent',
      requeued: false,
    })
    expect(await db.selectFrom('sandbox_refunds').select('amount').execute()).toEqual([{ amount: 10_340 }])
    await clock.advance(testApp.app, 10)
    expect(await verifyLedger(db)).toEqual([])
  })
})

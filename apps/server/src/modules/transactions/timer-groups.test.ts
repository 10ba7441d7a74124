import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { confirmDelivery, joinedSale, payByCard, track } from '../../testing/sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { fireTimers, jobEffectScheduler } from './transaction-jobs.ts'

const testApps = appPerTest()

describe('timers fired together in one commit', () => {
  it('release every sale whose window ended, leave a complained one to its complaint, and enqueue the transfers and e-mails', async () => {
    const clock = new TestClock()
    const testApp = await testApps.open({ clock })
    const { app } = testApp
    const call = apiCaller(app, await partyTokens(testApp.tokenFor, { seller: {}, buyer: {} }))
    const ids: string[] = []
    for (let n = 0; n < 3; n++) {
      const { id } = await joinedSale(call)
      await payByCard(call, id)
      await track(call, id, { carrier: 'dhl', tracking_code: `GROUP${n}` })
      await confirmDelivery(call, id)
      ids.push(id)
    }
    const [first, second, complained] = ids as [string, string, string]
    expect(
      (await call('buyer', 'POST', `/api/v1/transactions/${complained}/complain_with_description`, { description: 'Scratched' })).status,
    ).toBe(200)
    await clock.moveBy(24 * 3600 + 1)

    const { db, clock: appClock, config, jobs } = app.services
    const deps = { db, clock: appClock, policy: config.onlinePolicy, effects: jobEffectScheduler(jobs) }
    await fireTimers(
      deps,
      jobs,
      ids.map((transactionId) => ({ transactionId, kind: 'complaint_window' as const })),
    )

    const statuses = await db.selectFrom('transactions').select(['id', 'status']).where('id', 'in', ids).execute()
    expect(Object.fromEntries(statuses.map((row) => [row.id, row.status]))).toEqual({
      [first]: 'funds_released',
      [second]: 'funds_released',
      [complained]: 'complained',
    })
    // What the releases caused was enqueued in the same commit: the transfers go out and the e-mails are written.
    await jobs.runDue()
    const transfers = await db.selectFrom('outbox').select(['transaction_id', 'status']).where('action', '=', 'transfer').execute()
    expect(transfers.map((row) => row.transaction_id).sort()).toEqual([first, second].sort())
    expect(transfers.every((row) => row.status === 'sent')).toBe(true)
    const released = await db
      .selectFrom('notifications')
      .select('transaction_id')
      .where('template', '=', 'funds_released')
      .where('status', '=', 'sent')
      .execute()
    expect(released.map((row) => row.transaction_id).sort()).toEqual([first, first, second, second].sort())
  })
})

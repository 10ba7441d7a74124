import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely'
import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../../testing/api-caller.ts'
import { confirmDelivery, joinedSale, payByCard, type SaleCall, track } from '../../testing/sale-steps.ts'
import { appPerTest } from '../../testing/app-per-test.ts'
import { TestClock } from '../../testing/test-clock.ts'
import { fireTimers, jobEffectScheduler } from './transaction-jobs.ts'

const testApps = appPerTest()

describe('timers fired together in one commit', () => {
  it('release every sale whose window ended, leave a complained one to its complaint, and enqueue the transfers and e-mails', async () => {
    const clock = new TestClock()
    const { app, call } = await appWithDeliveredSales(clock)
    const ids = await deliveredSales(call, 3)
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

  it('writes a group with one statement of each kind, however many sales it releases, and keys each e-mail by its own audit line', async () => {
    const clock = new TestClock()
    const { app, call } = await appWithDeliveredSales(clock)
    const delivered = await deliveredSales(call, 6)
    await clock.moveBy(24 * 3600 + 1)

    const { db, clock: appClock, config, jobs } = app.services
    const statements = new StatementCounter()
    const deps = { db: db.withPlugin(statements), clock: appClock, policy: config.onlinePolicy, effects: jobEffectScheduler(jobs) }
    const fire = async (ids: string[]) => {
      statements.count = 0
      await fireTimers(
        deps,
        jobs,
        ids.map((transactionId) => ({ transactionId, kind: 'complaint_window' as const })),
      )
      return statements.count
    }
    // Two timers of one sale in a group: the second sees the first's release and changes nothing.
    const forTwo = await fire([delivered[0]!, delivered[1]!, delivered[1]!])
    const forFour = await fire(delivered.slice(2))
    expect(forFour).toBe(forTwo)

    const statuses = await db.selectFrom('transactions').select('status').where('id', 'in', delivered).execute()
    expect(statuses.map((row) => row.status)).toEqual(Array(6).fill('funds_released'))
    const releases = await db
      .selectFrom('transaction_events')
      .select(['id', 'transaction_id'])
      .where('event', '=', 'complaint_window_elapsed')
      .where('transaction_id', 'in', delivered)
      .execute()
    expect(releases.map((row) => row.transaction_id).sort()).toEqual([...delivered].sort())
    // Each release's e-mails carry the id of that release's own line of history.
    await jobs.runDue()
    const mails = await db
      .selectFrom('notifications')
      .select(['transaction_id', 'key'])
      .where('template', '=', 'funds_released')
      .where('transaction_id', 'in', delivered)
      .execute()
    expect(mails).toHaveLength(12)
    const auditIdOf = new Map(releases.map((row) => [row.transaction_id, String(row.id)]))
    for (const mail of mails) expect(mail.key.split(':')[1]).toBe(auditIdOf.get(mail.transaction_id))
    const transfers = await db.selectFrom('outbox').select('transaction_id').where('action', '=', 'transfer').execute()
    expect(transfers.map((row) => row.transaction_id).sort()).toEqual([...delivered].sort())
  })
})

async function appWithDeliveredSales(clock: TestClock) {
  const testApp = await testApps.open({ clock })
  return { app: testApp.app, call: apiCaller(testApp.app, await partyTokens(testApp.tokenFor, { seller: {}, buyer: {} })) }
}

/** `count` sales paid, shipped and delivered, their complaint windows running. */
async function deliveredSales(call: SaleCall, count: number): Promise<string[]> {
  const ids: string[] = []
  for (let n = 0; n < count; n++) {
    const { id } = await joinedSale(call)
    await payByCard(call, id)
    await track(call, id, { carrier: 'dhl', tracking_code: `GROUP${n}` })
    await confirmDelivery(call, id)
    ids.push(id)
  }
  return ids
}

/** Counts the statements sent through the database handle it is plugged into. */
class StatementCounter implements KyselyPlugin {
  count = 0
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count++
    return args.node
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result
  }
}

import { describe, expect, it } from 'vitest'
import { apiCaller, partyTokens } from '../testing/api-caller.ts'
import { appPerTest } from '../testing/app-per-test.ts'
import { createSale, joinSale } from '../testing/sale-steps.ts'
import { recordedReplica } from '../testing/recorded-replica.ts'

/*
 * Which server each request reads from when DATABASE_READ_URL is set
 * (db/replica-reads.ts, decision 123). The replica here is a stand-in: a
 * second Kysely on the test database whose statements are noted; how far
 * it has replayed is said by the test. A statement not on the replica ran
 * on the primary, the only other connection the app has.
 */

const testApps = appPerTest()

async function start() {
  let replica: ReturnType<typeof recordedReplica> | undefined
  let replayed: 'caught up' | 'behind' = 'caught up'
  const testApp = await testApps.open({
    adaptDatabase: (database) => (replica = recordedReplica(database)).database,
    // Caught up: beyond any position the primary can be at; behind: before its first record.
    replayedLsn: async () => (replayed === 'caught up' ? 'FFFFFFFF/FFFFFFFF' : '0/0'),
  })
  const tokens = await partyTokens(testApp.tokenFor, { seller: {}, buyer: {}, admin: { admin: true } })
  const call = apiCaller(testApp.app, tokens)
  /** The request's answer with the statements the replica ran for it. */
  const traced = async (...args: Parameters<typeof call>) => {
    replica!.take()
    const answer = await call(...args)
    return { answer, replica: replica!.take().join('\n') }
  }
  return { call, traced, setReplica: (state: typeof replayed) => (replayed = state) }
}

describe('reads from the replica', () => {
  it('serves lists, the admin console’s lists and the verification page from a replica that has caught up', async () => {
    const { call, traced } = await start()
    const sale = await createSale(call)

    const list = await traced('seller', 'GET', '/api/v1/me/transactions?limit=20')
    expect(list.answer.body.map((row: { id: string }) => row.id)).toEqual([sale.id])
    expect(list.replica).toMatch(/from "transactions"/)

    for (const url of ['/api/v1/admin/transactions', '/api/v1/admin/audit_log', '/api/v1/admin/cases', '/api/v1/admin/client_changes']) {
      const admin = await traced('admin', 'GET', url)
      expect(admin.answer.status, url).toBe(200)
      expect(admin.replica, url).toMatch(/select/)
    }

    const code = String(sale.created.verify_url).split('/verify/')[1]
    const verification = await traced(null, 'GET', `/api/v1/verify/${code}`)
    expect(verification.answer.status).toBe(200)
    expect(verification.replica).toMatch(/from "transactions"/)
  })

  it('keeps writes, the status page and an admin’s look at one sale on the primary', async () => {
    const { call, traced } = await start()
    const sale = await createSale(call)

    const join = await traced('buyer', 'PUT', `/api/v1/transactions?join_code=${sale.joinCode}`)
    expect(join.answer.body.status).toBe('joined')
    expect(join.replica).toBe('')

    for (const url of [`/api/v1/transactions/${sale.id}`, `/api/v1/admin/transactions/${sale.id}`]) {
      const one = await traced(url.includes('admin') ? 'admin' : 'buyer', 'GET', url)
      expect(one.answer.status, url).toBe(200)
      expect(one.replica, url).toBe('')
    }
  })

  it('serves a list from the primary while the replica is behind, so a user sees their own last action', async () => {
    const { call, traced, setReplica } = await start()
    const sale = await createSale(call)
    setReplica('behind')
    await joinSale(call, sale.joinCode)

    const list = await traced('buyer', 'GET', '/api/v1/me/transactions?limit=20')
    expect(list.answer.body).toMatchObject([{ id: sale.id, status: 'joined' }])
    expect(list.replica).toBe('')
  })
})

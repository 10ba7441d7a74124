import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../testing/test-database.ts'
import { AppError } from '../errors.ts'
import type { Database } from './database.ts'
import { lsnValue, ReplicaReads, type ServedBy } from './replica-reads.ts'

let database: Database | undefined
afterEach(async () => {
  await database?.close()
  database = undefined
})

/** A second Kysely on the test database's own pool: a stand-in replica the gate can tell from the primary. */
async function primaryAndStandIn() {
  database = await createTestDatabase()
  const primary = database.db
  const standIn = primary.withPlugin({ transformQuery: (args) => args.node, transformResult: async (args) => args.result })
  const currentLsn = async () => (await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary)).rows[0]!.lsn
  return { primary, standIn, currentLsn }
}

describe('reads that may go to the replica', () => {
  it('orders WAL positions as PostgreSQL does', () => {
    expect(lsnValue('0/FFFFFFFF') < lsnValue('1/0')).toBe(true)
    expect(lsnValue('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n)
    expect(lsnValue('16/b374d848')).toBe(lsnValue('16/B374D848'))
    expect(() => lsnValue('16-B374D848')).toThrow(/not a WAL position/)
  })

  it('sends every read to the primary, without a probe, when no replica is configured', async () => {
    database = await createTestDatabase()
    expect(database.read).toBe(database.db)
    const asked: string[] = []
    const reads = new ReplicaReads({
      primary: database.db,
      replica: database.read,
      replayedLsn: async () => {
        asked.push('replica')
        return null
      },
    })
    expect(reads.configured).toBe(false)
    expect(await reads.db()).toBe(database.db)
    expect(asked).toEqual([])
  })

  it('reads from a replica that has replayed up to where the primary was when the read began', async () => {
    const { primary, standIn, currentLsn } = await primaryAndStandIn()
    const served: ServedBy[] = []
    // The same engine: it has replayed exactly what the primary has written, no more.
    const reads = new ReplicaReads({ primary, replica: standIn, replayedLsn: currentLsn, onRead: (by) => served.push(by) })
    expect(await reads.db()).toBe(standIn)
    expect(served).toEqual(['replica'])
  })

  it('reads from the primary while the replica is behind it', async () => {
    const { primary, standIn, currentLsn } = await primaryAndStandIn()
    const before = await currentLsn()
    // A write moves the primary on; the stand-in is left where the primary was before it.
    await sql`create table replica_probe_moves_the_wal (n int)`.execute(primary)
    await sql`drop table replica_probe_moves_the_wal`.execute(primary)
    expect(lsnValue(await currentLsn())).toBeGreaterThan(lsnValue(before))
    const served: ServedBy[] = []
    const reads = new ReplicaReads({ primary, replica: standIn, replayedLsn: async () => before, onRead: (by) => served.push(by) })
    expect(await reads.db()).toBe(primary)
    expect(served).toEqual(['primary'])
  })

  it('reads from the primary when the read server replays nothing (not a standby) or cannot be asked', async () => {
    const { primary, standIn } = await primaryAndStandIn()
    // The default probe, pg_last_wal_replay_lsn(), answers null on a server that is not a standby: the test database is one.
    const notStandby = new ReplicaReads({ primary, replica: standIn })
    expect(await notStandby.db()).toBe(primary)
    const problems: unknown[] = []
    const unreachable = new ReplicaReads({
      primary,
      replica: standIn,
      replayedLsn: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5433')),
      onProblem: (error) => problems.push(error),
    })
    expect(await unreachable.db()).toBe(primary)
    expect(String(problems[0])).toMatch(/ECONNREFUSED/)
  })

  it('runs a read the replica fails again on the primary, but lets the app’s own answer stand', async () => {
    const { primary, standIn, currentLsn } = await primaryAndStandIn()
    const problems: unknown[] = []
    const reads = new ReplicaReads({ primary, replica: standIn, replayedLsn: currentLsn, onProblem: (error) => problems.push(error) })
    const ran: string[] = []
    const answer = await reads.read(async (db) => {
      ran.push(db === standIn ? 'replica' : 'primary')
      // What a standby says when its replay needs a row this query still reads.
      if (db === standIn) throw new Error('canceling statement due to conflict with recovery')
      return (await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]?.one
    })
    expect(answer).toBe(1)
    expect(ran).toEqual(['replica', 'primary'])
    expect(String(problems[0])).toMatch(/conflict with recovery/)

    ran.length = 0
    const notFound = reads.read(async (db) => {
      ran.push(db === standIn ? 'replica' : 'primary')
      throw new AppError('not_found', 'No sale has this verification code')
    })
    await expect(notFound).rejects.toThrow(/No sale has this verification code/)
    expect(ran).toEqual(['replica'])
  })
})

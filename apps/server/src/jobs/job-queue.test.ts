import { setTimeout } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { fromPglite, PgBoss } from 'pg-boss'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { TestClock } from '../testing/test-clock.ts'

describe('job queue', () => {
  let testApp: TestApp
  let clock: TestClock
  const ran: string[] = []

  beforeEach(async () => {
    clock = new TestClock()
    testApp = await createTestApp({ clock })
    ran.length = 0
    const { jobs } = testApp.app.services
    await jobs.createQueue('test-echo')
    await jobs.work<{ word: string }>('test-echo', async (data) => {
      ran.push(data.word)
    })
  })
  afterEach(async () => {
    await testApp.close()
  })

  it('runs a job enqueued inside a committed transaction', async () => {
    const { db, jobs } = testApp.app.services
    await db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx)
      await jobs.send('test-echo', { word: 'committed' }, { db: trx })
    })
    await jobs.runDue()
    expect(ran).toEqual(['committed'])
  })

  it('never runs a job enqueued in a transaction that rolled back', async () => {
    const { db, jobs } = testApp.app.services
    await expect(
      db.transaction().execute(async (trx) => {
        await jobs.send('test-echo', { word: 'rolled back' }, { db: trx })
        throw new Error('abort')
      }),
    ).rejects.toThrow('abort')
    await clock.advance(testApp.app, 3600)
    expect(ran).toEqual([])
  })

  it('runs a delayed job only once the clock reaches it', async () => {
    const { jobs } = testApp.app.services
    await jobs.send('test-echo', { word: 'later' }, { startAfter: 60 })
    await clock.advance(testApp.app, 59)
    expect(ran).toEqual([])
    await clock.advance(testApp.app, 2)
    expect(ran).toEqual(['later'])
  })

  it('retries a job whose handler throws', async () => {
    const { jobs } = testApp.app.services
    let attempts = 0
    await jobs.createQueue('test-flaky', { retryLimit: 3, retryDelay: 10 })
    await jobs.work('test-flaky', async () => {
      attempts++
      if (attempts < 3) throw new Error('not yet')
    })
    await jobs.send('test-flaky', {})
    await jobs.runDue()
    expect(attempts).toBe(1)
    await clock.advance(testApp.app, 10)
    await clock.advance(testApp.app, 10)
    expect(attempts).toBe(3)
    await clock.advance(testApp.app, 3600)
    expect(attempts).toBe(3)
  })

  it('hands a job back when the process running it died, instead of waiting out its expiry', async () => {
    const { jobs } = testApp.app.services
    await jobs.createQueue('test-orphaned', { retryDelay: 1 })
    await jobs.send('test-orphaned', { word: 'orphaned' })
    // Another process claims the job and dies before it finishes: no completion, no heartbeat.
    const { pglite, connectionString } = testApp.database
    const deadProcess = new PgBoss({
      ...(pglite ? { db: fromPglite(pglite), backend: 'pglite' as const } : { connectionString: connectionString!, max: 1 }),
      supervise: false,
      schedule: false,
    })
    await deadProcess.start()
    expect(await deadProcess.fetch('test-orphaned')).toHaveLength(1)
    // This app's worker starts only now: started before, it could be woken by the send and take the job first.
    await jobs.work<{ word: string }>('test-orphaned', async (data) => {
      ran.push(data.word)
    })
    // On PostgreSQL its own pool goes with it; PGlite's one engine belongs to the app.
    await deadProcess.stop({ graceful: false, close: !pglite })

    await clock.jobClock.tick(5_000)
    await jobs.runDue()
    expect(ran).toEqual([])
    // Its heartbeat is overdue after 10 s; the supervisor, passing every 5 s, hands it back for a retry.
    await clock.jobClock.tick(15_000)
    await clock.advance(testApp.app, 2)
    expect(ran).toEqual(['orphaned'])
  })

  it('refuses a queue that was not created', async () => {
    await expect(testApp.app.services.jobs.send('test-unknown', {})).rejects.toThrow(/not created/)
  })
})

describe('job queue on the real clock', () => {
  it('lets the workers pick up due jobs by themselves', async () => {
    const testApp = await createTestApp()
    try {
      const { jobs } = testApp.app.services
      const seen: string[] = []
      await jobs.createQueue('test-real-time')
      await jobs.work<{ word: string }>('test-real-time', async (data) => {
        seen.push(data.word)
      })
      await jobs.send('test-real-time', { word: 'now' })
      await jobs.send('test-real-time', { word: 'soon' }, { startAfter: 1 })
      await expect.poll(() => seen, { timeout: 10_000, interval: 100 }).toEqual(['now', 'soon'])
    } finally {
      await testApp.close()
    }
  })

  it('runs no job in a process with BACKGROUND_JOBS=off, which still enqueues them for another', async () => {
    // The configuration names a PostgreSQL server, as it must for `off`; the app is handed the test database.
    const testApp = await createTestApp({ env: { DATABASE_URL: 'postgres://unused@127.0.0.1:1/none', BACKGROUND_JOBS: 'off' } })
    try {
      const { db, jobs } = testApp.app.services
      const seen: string[] = []
      await jobs.createQueue('test-requests-only')
      await jobs.work<{ word: string }>('test-requests-only', async (data) => {
        seen.push(data.word)
      })
      await jobs.send('test-requests-only', { word: 'later' })
      await setTimeout(2_500)
      expect(seen).toEqual([])
      const waiting = await sql<{
        n: number
      }>`select count(*)::int as n from pgboss.job where name = 'test-requests-only' and state = 'created'`.execute(db)
      expect(waiting.rows[0]?.n).toBe(1)
    } finally {
      await testApp.close()
    }
  })

  it('has runDue wait for a job its own workers took first, so that its work is done when it returns', async () => {
    const testApp = await createTestApp()
    try {
      const { jobs } = testApp.app.services
      let release = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      let started = false
      let done = false
      await jobs.createQueue('test-taken')
      await jobs.work('test-taken', async () => {
        started = true
        await held
        done = true
      })
      await jobs.send('test-taken', {})
      await expect.poll(() => started, { timeout: 10_000, interval: 20 }).toBe(true)
      let returned = false
      const running = jobs.runDue().then(() => {
        returned = true
      })
      await setTimeout(100)
      expect(returned).toBe(false)
      release()
      await running
      expect(done).toBe(true)
    } finally {
      await testApp.close()
    }
  })

  it("runs jobs that are due together side by side, up to the queue's concurrency", async () => {
    const testApp = await createTestApp()
    try {
      const { db, jobs } = testApp.app.services
      let running = 0
      let mostAtOnce = 0
      let finished = 0
      await jobs.createQueue('test-parallel', { concurrency: 5 })
      await jobs.work('test-parallel', async () => {
        running++
        mostAtOnce = Math.max(mostAtOnce, running)
        await setTimeout(50)
        running--
        finished++
      })
      await db.transaction().execute(async (trx) => {
        for (let n = 0; n < 20; n++) await jobs.send('test-parallel', { n }, { db: trx })
      })
      await expect.poll(() => finished, { timeout: 10_000, interval: 50 }).toBe(20)
      expect(mostAtOnce).toBeGreaterThan(1)
      expect(mostAtOnce).toBeLessThanOrEqual(5)
    } finally {
      await testApp.close()
    }
  })

  it('keeps several fetches going with `workers`, so that a slow job holds back only its own fetch', async () => {
    const testApp = await createTestApp()
    let release: () => void = () => {}
    try {
      const { db, jobs } = testApp.app.services
      const slowHeld = new Promise<void>((resolve) => (release = resolve))
      const done: number[] = []
      await jobs.createQueue('test-workers', { concurrency: 1, workers: 2 })
      await jobs.work<{ n: number }>('test-workers', async ({ n }) => {
        if (n === 0) await slowHeld
        done.push(n)
      })
      await db.transaction().execute(async (trx) => {
        for (let n = 0; n < 4; n++) await jobs.send('test-workers', { n }, { db: trx })
      })
      // With one fetch at a time the held first job would hold all the others back.
      await expect.poll(() => done.toSorted(), { timeout: 10_000, interval: 50 }).toEqual([1, 2, 3])
      release()
      await expect.poll(() => done.length, { timeout: 10_000, interval: 50 }).toBe(4)
    } finally {
      release()
      await testApp.close()
    }
  })

  it('retries only the job that failed, not the others fetched with it', async () => {
    const testApp = await createTestApp()
    try {
      const { jobs } = testApp.app.services
      const attempts = new Map<string, number>()
      await jobs.createQueue('test-batch', { retryLimit: 3, retryDelay: 1, concurrency: 10 })
      await jobs.work<{ word: string }>('test-batch', async ({ word }) => {
        attempts.set(word, (attempts.get(word) ?? 0) + 1)
        if (word === 'flaky' && attempts.get(word) === 1) throw new Error('not yet')
      })
      for (const word of ['one', 'flaky', 'two', 'three']) await jobs.send('test-batch', { word })
      await expect.poll(() => attempts.get('flaky'), { timeout: 15_000, interval: 100 }).toBe(2)
      expect(Object.fromEntries(attempts)).toEqual({ one: 1, flaky: 2, two: 1, three: 1 })
    } finally {
      await testApp.close()
    }
  })

  it('runs jobs fetched together in groups, and a group that fails job by job', async () => {
    const testApp = await createTestApp()
    try {
      const { db, jobs } = testApp.app.services
      const groups: string[][] = []
      const single: string[] = []
      await jobs.createQueue('test-groups', { retryLimit: 0, concurrency: 10 })
      await jobs.work<{ word: string }>(
        'test-groups',
        async ({ word }) => {
          if (word === 'bad') throw new Error('bad job')
          single.push(word)
        },
        {
          groups: {
            size: 3,
            run: async (items) => {
              if (items.some((item) => item.word === 'bad')) throw new Error('a bad job in the group')
              groups.push(items.map((item) => item.word))
            },
          },
        },
      )
      const words = ['a', 'b', 'c', 'd', 'bad', 'e']
      await db.transaction().execute(async (trx) => {
        await jobs.sendMany(
          'test-groups',
          words.map((word) => ({ data: { word } })),
          { db: trx },
        )
      })
      await expect.poll(() => groups.flat().length + single.length, { timeout: 10_000, interval: 50 }).toBe(5)
      // The group with the bad job ran job by job: its good jobs went through, and only once.
      expect(groups.length).toBeGreaterThan(0)
      expect([...groups.flat(), ...single].sort()).toEqual(['a', 'b', 'c', 'd', 'e'])
    } finally {
      await testApp.close()
    }
  })
})

describe('urgent queues', () => {
  /** An urgent queue fetching two at a time whose handler waits for `release`, and a plain queue that notes when it ran. */
  async function urgentAndPlain(testApp: TestApp, plainSettings: { expireInSeconds?: number } = {}) {
    const { jobs } = testApp.app.services
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const state = { urgentDone: 0, plainRanAfter: undefined as number | undefined }
    await jobs.createQueue('test-urgent', { concurrency: 2, urgent: true })
    await jobs.createQueue('test-plain', plainSettings)
    await jobs.work('test-urgent', async () => {
      await held
      state.urgentDone++
    })
    await jobs.work('test-plain', async () => {
      state.plainRanAfter = state.urgentDone
    })
    return { jobs, state, release: () => release() }
  }

  it("holds other queues' jobs while an urgent queue's fetches come back full, and runs them once it is through", async () => {
    const testApp = await createTestApp()
    try {
      const { jobs, state, release } = await urgentAndPlain(testApp)
      await jobs.sendMany(
        'test-urgent',
        Array.from({ length: 5 }, (_, n) => ({ data: { n } })),
      )
      await expect.poll(() => jobs.urgentBacklog(), { timeout: 10_000, interval: 20 }).toBe(true)
      await jobs.send('test-plain', {})
      await setTimeout(2_500)
      expect(state.plainRanAfter).toBeUndefined()
      release()
      await expect.poll(() => state.plainRanAfter, { timeout: 15_000, interval: 50 }).toBeDefined()
      // The fetch that came back short (the fifth job) ended the backlog; the four before it were done.
      expect(state.plainRanAfter).toBeGreaterThanOrEqual(4)
      expect(jobs.urgentBacklog()).toBe(false)
    } finally {
      await testApp.close()
    }
  })

  it('ends the backlog soon after its last full batch when the fetch after it comes back empty', async () => {
    const testApp = await createTestApp()
    try {
      const { jobs, state, release } = await urgentAndPlain(testApp)
      // Two full fetches and nothing after: pg-boss does not call a handler with an empty fetch, so no
      // short fetch ends the backlog. It used to hold the plain queue for ten seconds (backlogStaleSeconds).
      await jobs.sendMany(
        'test-urgent',
        Array.from({ length: 4 }, (_, n) => ({ data: { n } })),
      )
      await expect.poll(() => jobs.urgentBacklog(), { timeout: 10_000, interval: 20 }).toBe(true)
      await jobs.send('test-plain', {})
      release()
      await expect.poll(() => state.plainRanAfter, { timeout: 4_000, interval: 50 }).toBe(4)
      expect(jobs.urgentBacklog()).toBe(false)
    } finally {
      await testApp.close()
    }
  })

  it('runs the other queues anyway after a third of their expiry, so that a long backlog starves nobody', async () => {
    const testApp = await createTestApp()
    const { jobs, state, release } = await urgentAndPlain(testApp, { expireInSeconds: 3 })
    try {
      await jobs.sendMany(
        'test-urgent',
        Array.from({ length: 5 }, (_, n) => ({ data: { n } })),
      )
      await expect.poll(() => jobs.urgentBacklog(), { timeout: 10_000, interval: 20 }).toBe(true)
      await jobs.send('test-plain', {})
      // At most 1 s of waiting (a third of 3 s) after the worker's next poll.
      await expect.poll(() => state.plainRanAfter, { timeout: 10_000, interval: 50 }).toBe(0)
      expect(jobs.urgentBacklog()).toBe(true)
    } finally {
      release()
      await testApp.close()
    }
  })
})

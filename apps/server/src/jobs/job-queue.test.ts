import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
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
})

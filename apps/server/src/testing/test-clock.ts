import { TestClock as JobTestClock } from 'pg-boss'
import type { Clock } from '../clock.ts'

/**
 * A clock that tests move by hand, shared by the app (`now()`) and the job
 * queue (pg-boss's TestClock, which also moves the database's idea of now
 * for job scheduling). Moving it fires nothing by itself: a test then runs
 * whatever has fallen due with `app.services.jobs.runDue()`, or uses
 * `advance`, which does both.
 *
 *   const clock = new TestClock()
 *   const { app } = await createTestApp({ clock })
 *   ... something schedules a job 30 s ahead ...
 *   await clock.advance(app, 30)   // now + 30 s, due jobs (and the jobs they enqueue) run
 */
export class TestClock implements Clock {
  readonly jobClock: JobTestClock

  constructor(start: Date = new Date()) {
    this.jobClock = new JobTestClock(start)
  }

  now(): Date {
    return new Date(this.jobClock.now())
  }

  /** Moves time forward without running anything. */
  async moveBy(seconds: number): Promise<void> {
    await this.jobClock.setTime(this.jobClock.now() + seconds * 1000)
  }

  /** Moves time forward, then runs every job that is due (repeatedly, until none is). */
  async advance(app: { services: { jobs: { runDue(): Promise<number> } } }, seconds: number): Promise<number> {
    await this.moveBy(seconds)
    return app.services.jobs.runDue()
  }
}

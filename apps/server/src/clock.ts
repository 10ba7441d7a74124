import type { Clock as JobClock } from 'pg-boss'

/** Time comes from here so that tests can move it (DESIGN §3: the clock is injectable). */
export interface Clock {
  now(): Date
  /**
   * The job queue's timers and its notion of "now" in the database. Left
   * out, pg-boss runs on real time; a test clock (testing/test-clock.ts)
   * supplies one that moves together with `now()`, so that delayed jobs fall
   * due when a test moves time.
   */
  readonly jobClock?: JobClock
}

export const systemClock: Clock = { now: () => new Date() }

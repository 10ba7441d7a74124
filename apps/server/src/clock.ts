/** Time comes from here so that tests can move it (DESIGN §3: the clock is injectable). */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

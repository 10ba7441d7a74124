import type { CrashEngine } from '../crash-server.ts'
import type { JobRow } from './jobs.ts'

/*
 * What a crash scenario (../crash-run.ts) is given and what it reports:
 * the sales' plans, the run's options, each sale as the client knows it,
 * the moment of the crash, and the checks of the books.
 */

/** How each sale of the burst runs its course; sale i follows plan i mod 6. */
export const salePlans = ['timer-release', 'buyer-release', 'carrier-release', 'seller-refund', 'complaint-refund', 'buyer-cancel'] as const
export type SalePlan = (typeof salePlans)[number]

export interface CrashRunOptions {
  engine: CrashEngine
  /** `name[:n]`, as CRASH_POINT takes it. */
  crashPoint: string
  sales: number
  plans?: readonly SalePlan[]
  /** Settings for the server beside crashRunTimings (a shorter complaint window for the test). */
  env?: Record<string, string>
  /** Sale i starts i × this many ms after the first (default 400), so that the crash lands among sales at every step. */
  staggerMs?: number
  /** How long a client keeps retrying a request answered `idempotency_request_in_progress` (default 90 s). */
  inProgressRetrySeconds?: number
  /**
   * When jobs were running in the dead process, the first look at the queue
   * (on PGlite, with the server stopped) waits this long after the restart
   * (default 40 s, past the 30 s the jobs have), so that looking does not
   * delay what it measures. The test, which does not time, looks at once.
   */
  firstLookSeconds?: number
  log?: (line: string) => void
}

export interface Check {
  name: string
  ok: boolean
  detail: string
}

export interface CrashRunReport {
  point: string
  sales: number
  /** Where the server died, if it reached its crash point. */
  crashedAt: string | undefined
  /** From the crash until the restarted server answered. */
  restartSeconds: number | null
  /** From the restart until the last piece of the burst's work was done (database timestamps). */
  settleSeconds: number | null
  /** Jobs running in the dead process, and the longest any took to run again to completion after the restart. */
  inFlightJobs: { count: number; maxSeconds: number | null }
  /** Every job due but unfinished at the crash (those running included). */
  dueJobs: { count: number; maxSeconds: number | null }
  /** Client requests the crash cut off, and what their retries got. */
  retriedRequests: RetriedRequest[]
  checks: Check[]
}

export interface RetriedRequest {
  label: string
  key: string | null
  status: number
  code: string | null
  replayed: boolean
  /** Answered `idempotency_request_in_progress` until the client gave up. */
  stuck: boolean
  /**
   * A refusal that means the sale went the same way by another path: the
   * first attempt never committed, and by the retry a timer had moved on
   * (a complaint after a restart longer than the complaint window).
   */
  refusedByLaterState: boolean
}

export interface Sale {
  index: number
  plan: SalePlan
  id?: string
  /** The status the sale must end in, given what the server answered its client. */
  expected?: string
}

/** When the server died, where, the burst's jobs it left running or due, and when the restarted one answered. */
export interface Crash {
  at: number
  point: string | undefined
  inFlight: JobRow[]
  due: JobRow[]
  readyAt?: number
}

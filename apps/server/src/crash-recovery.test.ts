import { describe, expect, it } from 'vitest'
import { runCrashScenario } from './testing/crash-run.ts'
import type { CrashRunOptions } from './testing/crash-run/scenario.ts'
import { type CrashEngine, pgliteEngine, postgresEngine } from './testing/crash-server.ts'

/**
 * The short version of the crash harness (bench/crash-harness.ts prints the
 * full table with timings): the real server in a child process kills itself
 * at a crash point, restarts without it, and the books must hold — ledger,
 * provider-side transfers and refunds, states, e-mails, jobs, retried
 * Idempotency-Keys. The small burst is driven at once and the points are
 * reached by background work (timers, the outbox, webhooks) after it, so
 * the scenario does not depend on where a client request happens to be.
 * On PGlite by default; on PostgreSQL when DATABASE_URL is set (a database
 * of its own on that server, dropped after).
 */
function engine(): Promise<CrashEngine> {
  const url = process.env.DATABASE_URL
  return url ? postgresEngine(url) : pgliteEngine()
}

async function expectRecovery(options: Omit<CrashRunOptions, 'engine'>): Promise<void> {
  const setup = await engine()
  // The harness's own account of the run (crash, restart, stops), shown when a check fails.
  const story: string[] = []
  try {
    const report = await runCrashScenario({ ...options, engine: setup, log: (line) => story.push(line) })
    expect(report.crashedAt, story.join('\n')).toBe(options.crashPoint.split(':')[0])
    const failed = report.checks.filter((check) => !check.ok).map((check) => `${check.name}: ${check.detail}`)
    expect(failed, story.join('\n')).toEqual([])
  } finally {
    await setup.dispose()
  }
}

/**
 * No pause between sales, a 4 s complaint window, and a first look at the
 * queue 15 s after the restart (about when the dead process's jobs are
 * handed back): the two scenarios run side by side, about 40 s on
 * PostgreSQL and up to a minute on PGlite on a busy two-core machine
 * (most of it the heartbeat hand-back and the server starts).
 */
const quick = { staggerMs: 0, firstLookSeconds: 15, env: { COMPLAINT_PERIOD_SECONDS: '4' } }

describe.concurrent('a crash between two systems loses and doubles nothing', () => {
  it('after the provider accepted a transfer and before the outbox row says so', async () => {
    // The 1st provider call is the refund, during the burst; the 2nd the first release's transfer, after it.
    await expectRecovery({
      crashPoint: 'outbox.after-provider-call:2',
      sales: 3,
      plans: ['timer-release', 'seller-refund', 'carrier-release'],
      ...quick,
    })
  }, 300_000)

  it('after a webhook was stored and applied and before the provider had its answer', async () => {
    // The first 8 deliveries come with the burst (intents created and paid, the refund created and settled);
    // the 9th follows the first release, when the client is done.
    await expectRecovery({
      crashPoint: 'webhook.after-commit:9',
      sales: 3,
      plans: ['timer-release', 'seller-refund', 'carrier-release'],
      ...quick,
    })
  }, 300_000)

  it("after a partner webhook was leased and before it was posted, on a transaction's last event", async () => {
    // The three sales make 18 partner events, each posted once: the 18th post is the last of its sale's, so
    // nothing later in that sale's stream comes to carry it (the lease of a dead worker must be taken over).
    await expectRecovery({
      crashPoint: 'partner-webhook.before-post:18',
      sales: 3,
      plans: ['timer-release', 'buyer-release', 'carrier-release'],
      ...quick,
    })
  }, 300_000)
})

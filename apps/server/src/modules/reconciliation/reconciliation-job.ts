import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Payments } from '../../adapters/payment-provider/payments-port.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { reconcileDay, yesterdayOf } from './reconcile-day.ts'

const reconciliationQueue = 'daily-reconciliation'
const dayMs = 86_400_000
/**
 * Yesterday is reconciled this long after midnight (UTC): a webhook for a
 * payment made at 23:59 has arrived by then, and Stripe's balance listing
 * has caught up.
 */
const runAfterMidnightMs = 2 * 3_600_000

interface ReconciliationDeps {
  db: Kysely<Database>
  jobs: JobQueue
  clock: Clock
  payments: Payments
  log: FastifyBaseLogger
}

export async function createReconciliationQueue(jobs: JobQueue): Promise<void> {
  await jobs.createQueue(reconciliationQueue, { retryLimit: 5, retryDelay: 300, retryBackoff: true, expireInSeconds: 1800 })
}

/**
 * One run a day for yesterday, on a slot per day: the slot is the
 * singleton key, so several processes enqueue one run, and the next day's
 * run is enqueued before this one works, so a failing run does not end the
 * chain. A re-run of a day replaces its result (reconcile-day.ts).
 */
export async function startReconciliationWorker(deps: ReconciliationDeps): Promise<void> {
  await deps.jobs.work<{ slot: number }>(reconciliationQueue, async (data) => {
    await schedule(deps.jobs, Math.max(data.slot + 1, slotAfter(deps.clock.now())))
    const day = yesterdayOf(new Date(data.slot * dayMs + runAfterMidnightMs))
    const comparison = await reconcileDay({ db: deps.db, payments: deps.payments, now: deps.clock.now() }, day)
    if (comparison.differences.length > 0) {
      deps.log.warn({ day, differences: comparison.differences.length }, 'reconciliation found differences with the payment provider')
    }
  })
  await schedule(deps.jobs, slotAfter(deps.clock.now()))
}

function slotAfter(now: Date): number {
  return Math.floor((now.getTime() - runAfterMidnightMs) / dayMs) + 1
}

async function schedule(jobs: JobQueue, slot: number): Promise<void> {
  await jobs.send(
    reconciliationQueue,
    { slot },
    { startAfter: new Date(slot * dayMs + runAfterMidnightMs), singletonKey: `reconciliation:${slot}` },
  )
}

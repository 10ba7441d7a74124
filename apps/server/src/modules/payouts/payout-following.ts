import type { EventHandlers } from '../../events/event-handlers.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { followPayoutEvent } from './follow-payout.ts'
import { createPayoutMailQueue, type PayoutMailDeps, startPayoutMailWorker } from './payout-failed-mail.ts'

/**
 * Sellers' payouts followed to the bank (decision 110): each Connect
 * `payout.*` event the webhook or the catch-up receives updates Pactum's
 * record of the payout, and a failure e-mails the seller. Called once at
 * start-up, after the provider's event intake exists and before workers run.
 */
export async function startPayoutFollowing(jobs: JobQueue, events: EventHandlers, deps: PayoutMailDeps): Promise<void> {
  await createPayoutMailQueue(jobs)
  await startPayoutMailWorker(jobs, deps)
  events.registerPayoutEventHandler(async (event, context) => {
    await followPayoutEvent({ jobs, clock: deps.clock }, context.db, event)
  })
}

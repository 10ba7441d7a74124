import type { Kysely, Transaction } from 'kysely'
import type { BankLink } from '../../adapters/bank-link/port.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { findItemToRemove, markItemRemoved, markItemsForRemoval } from './bank-link-items-repository.ts'

/**
 * A Plaid Item linked for payouts is removed at Plaid (`/item/remove`) once
 * it backs no payout account: the seller linked or typed another account,
 * or closed their Pactum account. The removal is a job queued in the
 * transaction that made the change and retried with back-off, so a Plaid
 * outage never blocks the seller (docs/decisions/105-providers-as-they-behave.md).
 */

export const bankLinkItemRemovalQueue = 'remove-bank-link-item'

export async function createBankLinkItemRemovalQueue(jobs: JobQueue): Promise<void> {
  // About a day and a half of attempts, doubling from a minute.
  await jobs.createQueue(bankLinkItemRemovalQueue, { retryLimit: 11, retryDelay: 60, retryBackoff: true, expireInSeconds: 60 })
}

export async function startBankLinkItemRemovalWorker(
  jobs: JobQueue,
  deps: { db: Kysely<Database>; bankLink: BankLink; clock: Clock },
): Promise<void> {
  await jobs.work<{ id: string }>(bankLinkItemRemovalQueue, async ({ id }) => {
    await removeBankLinkItem(deps, id)
  })
}

/**
 * Queues the removal of the user's Items, all of them or all but the one
 * behind the payout account `keepBankAccountId`; in `db`'s transaction
 * when it is one, so that nothing is removed for a change that rolled back.
 */
export async function retireBankLinkItems(
  deps: { db: Kysely<Database> | Transaction<Database>; jobs: JobQueue },
  userId: string,
  now: Date,
  keepBankAccountId?: string,
): Promise<void> {
  const ids = await markItemsForRemoval(deps.db, userId, now, keepBankAccountId)
  for (const id of ids) await deps.jobs.send(bankLinkItemRemovalQueue, { id }, { db: deps.db, singletonKey: id })
}

/**
 * No row lock across the provider's call: a second run at the same time
 * (a job retried while the first still waits) makes the same request, which
 * Plaid answers as "no such Item" and the adapter counts as removed.
 */
export async function removeBankLinkItem(deps: { db: Kysely<Database>; bankLink: BankLink; clock: Clock }, id: string): Promise<void> {
  const item = await findItemToRemove(deps.db, id)
  if (!item?.access_token) return
  await deps.bankLink.removeItem({ itemId: item.item_id, accessToken: item.access_token })
  await markItemRemoved(deps.db, id, deps.clock.now())
}

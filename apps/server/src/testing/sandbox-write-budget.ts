import type { Kysely } from 'kysely'
import { sandboxWritesKey } from '../adapters/payment-provider/sandbox-kernel.ts'
import { storedCounterKey } from '../db/rate-limit-counts.ts'
import type { Database } from '../db/schema.ts'

/**
 * The sandbox account's write bucket emptied for `forMs` (by other callers
 * of the same account, say): it refuses every write until then, as Stripe
 * answers 429. The bucket's row holds the time it is full again
 * (rate-limit-counts.ts, takeToken), set here a bucket's second past `forMs`.
 */
export async function spendSandboxWriteBudget(db: Kysely<Database>, forMs: number): Promise<void> {
  const fullAgainAt = new Date(Date.now() + forMs + 1000)
  await db
    .insertInto('rate_limits')
    .values({ key: storedCounterKey(sandboxWritesKey), count: 0, window_ends_at: fullAgainAt })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ window_ends_at: fullAgainAt }))
    .execute()
}

/** Every bucket and counter full again, as a moment later. */
export async function refillSandboxWriteBudget(db: Kysely<Database>): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ window_ends_at: new Date(Date.now() - 1) })
    .execute()
}

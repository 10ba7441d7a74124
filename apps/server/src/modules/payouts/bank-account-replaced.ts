import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { markBankAccountReplaced } from './payouts-repository.ts'

/**
 * The seller gave a new bank account after a failed payout. The provider
 * pays the failed amount out again by itself: Stripe put the money back in
 * the account's balance and paused payouts to the errored bank account,
 * and with automatic payouts (Pactum's connected accounts use Stripe's
 * payout schedule) the next run takes it once the account is replaced;
 * the sandbox does the same. Pactum only records that the seller acted, so
 * the Balance page and the e-mail stop asking (decision 110).
 */
export async function bankAccountReplaced(db: Kysely<Database>, accountId: string, now: Date): Promise<number> {
  return markBankAccountReplaced(db, accountId, now)
}

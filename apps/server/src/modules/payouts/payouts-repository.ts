import type { Kysely, Selectable } from 'kysely'
import type { Database, SellerPayoutsTable } from '../../db/schema.ts'

/** The seller_payouts table (migration 0058): Pactum's record of each seller payout. */
export type SellerPayoutRow = Selectable<SellerPayoutsTable>

export type NewSellerPayout = Omit<SellerPayoutRow, 'failure_mailed_at' | 'bank_account_replaced_at'>

/** The payout's row, locked for the event being applied; undefined before its first event. */
export async function lockSellerPayout(db: Kysely<Database>, provider: string, payoutId: string): Promise<SellerPayoutRow | undefined> {
  return db
    .selectFrom('seller_payouts')
    .selectAll()
    .where('provider', '=', provider)
    .where('payout_id', '=', payoutId)
    .forUpdate()
    .executeTakeFirst()
}

/** Inserts the payout's first record; false when a concurrent event inserted it first (then lock it and apply again). */
export async function insertSellerPayout(db: Kysely<Database>, row: NewSellerPayout): Promise<boolean> {
  const inserted = await db
    .insertInto('seller_payouts')
    .values(row)
    .onConflict((conflict) => conflict.columns(['provider', 'payout_id']).doNothing())
    .returning('id')
    .executeTakeFirst()
  return inserted !== undefined
}

export async function updateSellerPayout(
  db: Kysely<Database>,
  id: string,
  values: Pick<
    SellerPayoutRow,
    | 'status'
    | 'amount'
    | 'currency'
    | 'arrival_date'
    | 'failure_code'
    | 'failure_message'
    | 'last_event_id'
    | 'last_event_at'
    | 'failed_at'
    | 'updated_at'
  >,
): Promise<void> {
  await db.updateTable('seller_payouts').set(values).where('id', '=', id).execute()
}

export async function findSellerPayout(db: Kysely<Database>, id: string): Promise<SellerPayoutRow | undefined> {
  return db.selectFrom('seller_payouts').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function markFailureMailed(db: Kysely<Database>, id: string, now: Date): Promise<void> {
  await db.updateTable('seller_payouts').set({ failure_mailed_at: now, updated_at: now }).where('id', '=', id).execute()
}

/** The account's failed payouts still waiting for a new bank account now have one; answers how many. */
export async function markBankAccountReplaced(db: Kysely<Database>, accountId: string, now: Date): Promise<number> {
  const updated = await db
    .updateTable('seller_payouts')
    .set({ bank_account_replaced_at: now, updated_at: now })
    .where('account_id', '=', accountId)
    .where('status', '=', 'failed')
    .where('bank_account_replaced_at', 'is', null)
    .executeTakeFirst()
  return Number(updated.numUpdatedRows)
}

/** Every followed payout of the account, newest first (a provider's account ids are its own: `acct_…`). */
export async function sellerPayoutsOf(db: Kysely<Database>, accountId: string): Promise<SellerPayoutRow[]> {
  return db
    .selectFrom('seller_payouts')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('payout_created', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

/** Who the failure e-mail goes to, and in which language. */
export async function findPayoutRecipient(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('users')
    .select(['email', 'first_name', 'notification_language', 'locale'])
    .where('id', '=', userId)
    .executeTakeFirst()
}

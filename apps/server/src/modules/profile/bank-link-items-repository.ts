import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { uuidV7 } from '../../ids.ts'

type Db = Kysely<Database> | Transaction<Database>

/** A bank link's Item, kept (with its secret access token) until it is removed at the provider. */
export async function insertBankLinkItem(
  db: Db,
  item: { userId: string; provider: string; itemId: string; accessToken: string; bankAccountId: string; now: Date },
): Promise<string> {
  const id = uuidV7(item.now)
  await db
    .insertInto('bank_link_items')
    .values({
      id,
      user_id: item.userId,
      provider: item.provider,
      item_id: item.itemId,
      access_token: item.accessToken,
      bank_account_id: item.bankAccountId,
      linked_at: item.now,
    })
    .execute()
  return id
}

/**
 * Marks the user's Items still at the provider for removal, all of them or
 * all but the one behind `keepBankAccountId`; returns the ones newly marked.
 */
export async function markItemsForRemoval(db: Db, userId: string, now: Date, keepBankAccountId?: string): Promise<string[]> {
  let query = db
    .updateTable('bank_link_items')
    .set({ removal_requested_at: now })
    .where('user_id', '=', userId)
    .where('removed_at', 'is', null)
    .where('removal_requested_at', 'is', null)
  if (keepBankAccountId) query = query.where('bank_account_id', '!=', keepBankAccountId)
  const rows = await query.returning('id').execute()
  return rows.map((row) => row.id)
}

export async function findItemToRemove(db: Db, id: string) {
  return db
    .selectFrom('bank_link_items')
    .select(['id', 'item_id', 'access_token'])
    .where('id', '=', id)
    .where('removed_at', 'is', null)
    .executeTakeFirst()
}

/** The Item is gone at the provider: its access token is no longer needed, and is erased. */
export async function markItemRemoved(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('bank_link_items').set({ removed_at: now, access_token: null }).where('id', '=', id).execute()
}

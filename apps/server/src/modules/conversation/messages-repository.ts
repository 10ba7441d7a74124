import { type Kysely, sql } from 'kysely'
import type { Database, TransactionMessagesTable } from '../../db/schema.ts'

/** The conversation's tables (issue 32 item 1): its messages and each reader's position. */

export type MessageRow = TransactionMessagesTable

export async function insertMessage(trx: Kysely<Database>, message: MessageRow): Promise<void> {
  await trx.insertInto('transaction_messages').values(message).execute()
}

/**
 * Whether this conversation caused an e-mail after `since`: the throttle of
 * at most one e-mail per conversation and 10 minutes. Asked under the
 * transaction row's lock, so that two messages at once cannot both e-mail.
 */
export async function notifiedSince(trx: Kysely<Database>, transactionId: string, since: Date): Promise<boolean> {
  const row = await trx
    .selectFrom('transaction_messages')
    .select('id')
    .where('transaction_id', '=', transactionId)
    .where('notified', '=', true)
    .where('created_at', '>', since)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** Oldest first, after `afterId` when given (keyset on the time-ordered id). */
export async function listMessages(
  db: Kysely<Database>,
  transactionId: string,
  page: { afterId: string | undefined; limit: number },
): Promise<MessageRow[]> {
  let query = db.selectFrom('transaction_messages').selectAll().where('transaction_id', '=', transactionId)
  if (page.afterId !== undefined) query = query.where('id', '>', page.afterId)
  return query.orderBy('id', 'asc').limit(page.limit).execute()
}

/** The whole conversation, oldest first: the case file lists every message. */
export async function allMessages(db: Kysely<Database>, transactionId: string): Promise<MessageRow[]> {
  return db.selectFrom('transaction_messages').selectAll().where('transaction_id', '=', transactionId).orderBy('id', 'asc').execute()
}

export async function findMessage(db: Kysely<Database>, transactionId: string, messageId: string): Promise<MessageRow | undefined> {
  return db
    .selectFrom('transaction_messages')
    .selectAll()
    .where('transaction_id', '=', transactionId)
    .where('id', '=', messageId)
    .executeTakeFirst()
}

/** Moves the user's read position forward to `messageId` (never back: an older page read later changes nothing). */
export async function markReadUpTo(db: Kysely<Database>, transactionId: string, userId: string, messageId: string): Promise<void> {
  await db
    .insertInto('transaction_message_reads')
    .values({ transaction_id: transactionId, user_id: userId, last_read_message_id: messageId })
    .onConflict((conflict) =>
      conflict.columns(['transaction_id', 'user_id']).doUpdateSet({
        last_read_message_id: sql<string>`greatest(transaction_message_reads.last_read_message_id, excluded.last_read_message_id)`,
      }),
    )
    .execute()
}

/** Whether the message exists and its attachment is stored under `key`. */
export async function messageHoldsAttachment(db: Kysely<Database>, messageId: string, key: string): Promise<boolean> {
  const message = await db
    .selectFrom('transaction_messages')
    .select('id')
    .where('id', '=', messageId)
    .where('attachment_key', '=', key)
    .executeTakeFirst()
  return message !== undefined
}

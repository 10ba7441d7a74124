import { type Kysely, sql } from 'kysely'

/**
 * Indexes for the admin console (issue 12.5): the list's filters by kind,
 * currency, client and creation date, a transaction's provider events (found
 * through the payment event's transaction id), and the audit log of admin
 * actions, newest first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('transactions_type_idx').on('transactions').columns(['type', 'id']).execute()
  await db.schema.createIndex('transactions_currency_idx').on('transactions').columns(['currency', 'id']).execute()
  await db.schema.createIndex('transactions_client_idx').on('transactions').columns(['client_id', 'id']).execute()
  await db.schema.createIndex('transactions_created_idx').on('transactions').column('created').execute()
  await db.schema
    .createIndex('provider_events_transaction_idx')
    .on('provider_events')
    .expression(sql`(domain_event->>'transactionId')`)
    .execute()
  await db.schema
    .createIndex('transaction_events_admin_idx')
    .on('transaction_events')
    .column('id')
    .where(sql.ref('actor_kind'), '=', 'admin')
    .execute()
}

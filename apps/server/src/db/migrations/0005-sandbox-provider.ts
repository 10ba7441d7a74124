import { type Kysely, sql } from 'kysely'

/**
 * The sandbox payment provider's own state. It stands in for Stripe's
 * servers, so nothing outside adapters/payment-provider/sandbox*.ts reads
 * these tables: the rest of Pactum learns about payments only through the
 * port's answers and the signed webhooks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_payment_intents')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('client_secret', 'text', (col) => col.notNull())
    .addColumn('amount', 'bigint', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('payment_method', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('transaction_id', 'text', (col) => col.notNull())
    .addColumn('metadata', 'jsonb', (col) => col.notNull())
    .addColumn('last_payment_error', 'jsonb')
    .addColumn('next_action', 'jsonb')
    .addColumn('pending_outcome', 'text')
    .addColumn('amount_refunded', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('sandbox_refunds')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('payment_intent_id', 'text', (col) => col.notNull().references('sandbox_payment_intents.id'))
    .addColumn('amount', 'bigint', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('sandbox_accounts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('country', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('sandbox_transfers')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('destination_account', 'text', (col) => col.notNull().references('sandbox_accounts.id'))
    .addColumn('amount', 'bigint', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('transaction_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('sandbox_transfers_destination_idx').on('sandbox_transfers').column('destination_account').execute()
  await db.schema
    .createTable('sandbox_idempotency_keys')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('operation', 'text', (col) => col.notNull())
    .addColumn('request_hash', 'text', (col) => col.notNull())
    .addColumn('response', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('sandbox_webhook_deliveries')
    .addColumn('event_id', 'text', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('payload', 'jsonb', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_status', 'integer')
    .addColumn('delivered_at', 'timestamptz')
    .execute()
}

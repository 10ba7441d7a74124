import { type Kysely, sql } from 'kysely'

/**
 * The state-change e-mails (DESIGN §1 e-mail; spec §7 notification language).
 * One row per notification the send-notification job has claimed. `key` comes
 * from the state change that asked for it (its audit event, the template and
 * the recipient), so a retried job finds its row and does not send again,
 * while a later state change with the same template gets a row of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('transaction_id', 'uuid', (col) => col.notNull().references('transactions.id'))
    .addColumn('template', 'text', (col) => col.notNull())
    .addColumn('recipient_role', 'text', (col) => col.notNull())
    .addColumn('recipient_user_id', 'uuid', (col) => col.notNull().references('users.id'))
    // The language the e-mail was written in, fixed when first claimed.
    .addColumn('language', 'text', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull().unique())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending'))
    // When a worker took it for sending; a claim older than the lease is taken over.
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('sent_at', 'timestamptz')
    // The mailer's message id (the file mailer's .eml name; an SMTP Message-ID).
    .addColumn('mail_id', 'text')
    .execute()
  await sql`alter table notifications add constraint notifications_status_check check (status in ('pending', 'sending', 'sent'))`.execute(
    db,
  )
  await sql`alter table notifications add constraint notifications_recipient_role_check check (recipient_role in ('buyer', 'seller'))`.execute(
    db,
  )
  await db.schema.createIndex('notifications_transaction_idx').on('notifications').columns(['transaction_id', 'created_at']).execute()
  await db.schema.createIndex('notifications_recipient_idx').on('notifications').column('recipient_user_id').execute()
}

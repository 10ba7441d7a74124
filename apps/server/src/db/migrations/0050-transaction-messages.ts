import { type Kysely, sql } from 'kysely'

/**
 * The conversation of a transaction (issue 32 item 1): its messages, each
 * text, an attachment kept in the document store, or both, and each user's
 * read position for the unread count. `notified` says the message caused the
 * e-mail to the other side (at most one per conversation and 10 minutes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('transaction_messages')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('transaction_id', 'uuid', (col) => col.notNull().references('transactions.id'))
    .addColumn('author_role', 'text', (col) => col.notNull())
    .addColumn('author_user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('text', 'text')
    .addColumn('attachment_key', 'text')
    .addColumn('attachment_name', 'text')
    .addColumn('attachment_content_type', 'text')
    .addColumn('attachment_size', 'integer')
    .addColumn('attachment_sha256', 'text')
    .addColumn('notified', 'boolean', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addCheckConstraint('transaction_messages_author_role_check', sql`author_role in ('buyer', 'seller', 'admin')`)
    .addCheckConstraint('transaction_messages_not_empty_check', sql`text is not null or attachment_key is not null`)
    .addCheckConstraint(
      'transaction_messages_attachment_check',
      sql`(attachment_key is null) = (attachment_name is null) and (attachment_key is null) = (attachment_content_type is null)
        and (attachment_key is null) = (attachment_size is null) and (attachment_key is null) = (attachment_sha256 is null)`,
    )
    .execute()
  await db.schema.createIndex('transaction_messages_transaction_idx').on('transaction_messages').columns(['transaction_id', 'id']).execute()

  await db.schema
    .createTable('transaction_message_reads')
    .addColumn('transaction_id', 'uuid', (col) => col.notNull().references('transactions.id'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('last_read_message_id', 'uuid', (col) => col.notNull())
    .addPrimaryKeyConstraint('transaction_message_reads_pkey', ['transaction_id', 'user_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transaction_message_reads').execute()
  await db.schema.dropTable('transaction_messages').execute()
}

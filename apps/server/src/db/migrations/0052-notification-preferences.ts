import { type Kysely, sql } from 'kysely'

/**
 * The e-mails a person turned off (issue 33, "Deliver"; decision 101): one
 * row per optional category they do not want, so everything is on until
 * they say otherwise, and a category added later starts on for everyone.
 * A notification skipped for that reason is recorded as `opted_out`, so its
 * job is not retried and the history says why nothing was sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notification_opt_outs')
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('category', 'text', (col) => col.notNull().check(sql`category in ('messages', 'reminders', 'updates')`))
    .addColumn('opted_out_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('notification_opt_outs_pkey', ['user_id', 'category'])
    .execute()
  await sql`alter table notifications drop constraint notifications_status_check`.execute(db)
  await sql`alter table notifications add constraint notifications_status_check check (status in ('pending', 'sending', 'sent', 'undeliverable', 'opted_out'))`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update notifications set status = 'pending' where status = 'opted_out'`.execute(db)
  await sql`alter table notifications drop constraint notifications_status_check`.execute(db)
  await sql`alter table notifications add constraint notifications_status_check check (status in ('pending', 'sending', 'sent', 'undeliverable'))`.execute(
    db,
  )
  await db.schema.dropTable('notification_opt_outs').execute()
}

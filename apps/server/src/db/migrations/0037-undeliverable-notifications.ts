import { type Kysely, sql } from 'kysely'

/**
 * An e-mail the mail server refused for good (an SMTP 5xx: no such mailbox,
 * a domain that takes no mail) is `undeliverable`, with the server's reply:
 * sending it again would be refused again, so the job stops retrying it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table notifications drop constraint notifications_status_check`.execute(db)
  await sql`alter table notifications add constraint notifications_status_check check (status in ('pending', 'sending', 'sent', 'undeliverable'))`.execute(
    db,
  )
  await db.schema.alterTable('notifications').addColumn('failure', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('notifications').dropColumn('failure').execute()
  await sql`update notifications set status = 'pending' where status = 'undeliverable'`.execute(db)
  await sql`alter table notifications drop constraint notifications_status_check`.execute(db)
  await sql`alter table notifications add constraint notifications_status_check check (status in ('pending', 'sending', 'sent'))`.execute(
    db,
  )
}

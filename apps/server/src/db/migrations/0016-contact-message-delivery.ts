import type { Kysely } from 'kysely'

/**
 * Contact messages are e-mailed to support by a job enqueued with the row
 * (spec §7 contact_us): `sent_at` and the mailer's id say it went out, so a
 * retried job does not write to support twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('contact_messages').addColumn('sent_at', 'timestamptz').execute()
  await db.schema.alterTable('contact_messages').addColumn('mail_id', 'text').execute()
}

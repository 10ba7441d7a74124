import { type Kysely, sql } from 'kysely'

/**
 * Onboarding (spec §3 Profile, §4 country flow): the user's active country,
 * terms acceptance, payout profile and notification language; and the
 * messages sent through the contact form.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('country_code', 'text')
    .addColumn('tos_accepted_at', 'timestamptz')
    .addColumn('tos_version_accepted', 'text')
    .addColumn('dob', 'date')
    .addColumn('phone', 'text')
    .addColumn('phone_country_code', 'text')
    .addColumn('address_line1', 'text')
    .addColumn('address_line2', 'text')
    .addColumn('address_city', 'text')
    .addColumn('address_state', 'text')
    .addColumn('address_postal_code', 'text')
    .addColumn('business_type', 'text', (col) => col.notNull().defaultTo('individual'))
    .addColumn('notification_language', 'text')
    .execute()
  await sql`alter table users add constraint users_business_type_check check (business_type in ('individual', 'company'))`.execute(db)

  await db.schema
    .createTable('contact_messages')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('name', 'text')
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('contact_messages_user_idx').on('contact_messages').columns(['user_id', 'created_at']).execute()
}

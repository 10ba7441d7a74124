import type { Kysely } from 'kysely'

/**
 * Registration proves the address before an account exists (issue 30): the
 * form keeps a pending registration and e-mails a link; the account is made
 * only when the link is opened. The link's token is stored as its SHA-256.
 * One pending registration per address: a second one replaces the first.
 * Each registration e-mails an address someone typed, so those e-mails are
 * counted per address (by the address's SHA-256: the counter needs no
 * addresses of people who never finished).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pending_registrations')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    // Normalised (lower case): the one pending registration of this address.
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('first_name', 'text', (col) => col.notNull())
    .addColumn('last_name', 'text', (col) => col.notNull())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('locale', 'text')
    // The sign-in interaction the registration began in, to finish it when the link opens in the same browser.
    .addColumn('interaction_uid', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('pending_registrations_expires_at_idx').on('pending_registrations').column('expires_at').execute()

  await db.schema
    .createTable('registration_emails')
    .addColumn('address_hash', 'text', (col) => col.notNull())
    .addColumn('sent_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema
    .createIndex('registration_emails_address_sent_idx')
    .on('registration_emails')
    .columns(['address_hash', 'sent_at'])
    .execute()
  await db.schema.createIndex('registration_emails_sent_idx').on('registration_emails').column('sent_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('registration_emails').execute()
  await db.schema.dropTable('pending_registrations').execute()
}

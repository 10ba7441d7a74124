import { type Kysely, sql } from 'kysely'

/**
 * Throttles that stop attackers, not owners (issue 30): a failed sign-in is
 * counted per (address, client address), per client address, and, for a
 * browser that signed in to the account before, per device. A burst of
 * failures against an account is e-mailed to its owner once. Password reset
 * links are stored as the SHA-256 of their token, used once, for 30 minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sign_in_attempts').addColumn('client_key', 'text').execute()
  await db.schema.alterTable('sign_in_attempts').addColumn('device_key', 'text').execute()
  await db.schema
    .createIndex('sign_in_attempts_client_key_attempted_at_idx')
    .on('sign_in_attempts')
    .columns(['client_key', 'attempted_at'])
    .execute()
  await db.schema
    .createIndex('sign_in_attempts_device_key_attempted_at_idx')
    .on('sign_in_attempts')
    .columns(['device_key', 'attempted_at'])
    .execute()

  // One row per account under attack: when the burst started and whether the owner was told.
  await db.schema
    .createTable('sign_in_bursts')
    .addColumn('account_key', 'text', (col) => col.primaryKey())
    .addColumn('started_at', 'timestamptz', (col) => col.notNull())
    .addColumn('last_failure_at', 'timestamptz', (col) => col.notNull())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('alerted_at', 'timestamptz')
    .execute()

  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    // The address the link was sent to: a link sent before an address change resets nothing.
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute()
  await db.schema
    .createIndex('password_reset_tokens_account_created_idx')
    .on('password_reset_tokens')
    .columns(['account_id', 'created_at'])
    .execute()

  // Ending every session and grant of one account (password reset and change) without a full scan.
  await sql`create index oidc_payloads_account_idx on oidc_payloads ((payload->>'accountId'))`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index oidc_payloads_account_idx`.execute(db)
  await db.schema.dropTable('password_reset_tokens').execute()
  await db.schema.dropTable('sign_in_bursts').execute()
  await db.schema.dropIndex('sign_in_attempts_device_key_attempted_at_idx').execute()
  await db.schema.dropIndex('sign_in_attempts_client_key_attempted_at_idx').execute()
  await db.schema.alterTable('sign_in_attempts').dropColumn('device_key').execute()
  await db.schema.alterTable('sign_in_attempts').dropColumn('client_key').execute()
}

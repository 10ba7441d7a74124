import { type Kysely, sql } from 'kysely'

/**
 * Identity verification and payouts (spec §3 Verification, Legacy document
 * status; §7 Profile and payout, Other; DESIGN §4).
 *
 * Ours: the user's business URL and verification session, and a record of
 * every identity file uploaded (for previously_submitted and for audit; the
 * file itself goes to the payment provider, as with Stripe's Files API).
 *
 * The sandbox payment provider's (nothing outside adapters/payment-provider
 * reads these): the files it received, each connected account's documents
 * and their checks, its external bank account, its payouts, Identity
 * verification sessions and account sessions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('business_url', 'text').execute()
  await db.schema.alterTable('users').addColumn('verification_session_id', 'text').execute()

  await db.schema
    .createTable('identity_document_uploads')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('document', 'text', (col) => col.notNull())
    .addColumn('side', 'text', (col) => col.notNull())
    .addColumn('provider_file_id', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await sql`alter table identity_document_uploads add constraint identity_document_uploads_document_check check (document in ('identity_document', 'additional_identity_document'))`.execute(
    db,
  )
  await sql`alter table identity_document_uploads add constraint identity_document_uploads_side_check check (side in ('front', 'back'))`.execute(
    db,
  )
  await db.schema
    .createIndex('identity_document_uploads_user_idx')
    .on('identity_document_uploads')
    .columns(['user_id', 'document', 'side'])
    .execute()

  await db.schema
    .alterTable('sandbox_accounts')
    .addColumn('additional_document_required', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute()
  await db.schema
    .createTable('sandbox_files')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('sandbox_accounts.id'))
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('sandbox_account_documents')
    .addColumn('account_id', 'text', (col) => col.notNull().references('sandbox_accounts.id'))
    .addColumn('document', 'text', (col) => col.notNull())
    .addColumn('side', 'text', (col) => col.notNull())
    .addColumn('file_id', 'text', (col) => col.notNull().references('sandbox_files.id'))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('rejection_reason', 'text')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('sandbox_account_documents_pk', ['account_id', 'document', 'side'])
    .execute()
  await db.schema
    .createTable('sandbox_external_accounts')
    .addColumn('account_id', 'text', (col) => col.primaryKey().references('sandbox_accounts.id'))
    .addColumn('id', 'text', (col) => col.notNull().unique())
    .addColumn('country', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('last4', 'text', (col) => col.notNull())
    // The failure the sandbox's test numbers ask for (see sandbox-test-data.ts), null to pay out.
    .addColumn('payout_failure_code', 'text')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('sandbox_payouts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('sandbox_accounts.id'))
    .addColumn('amount', 'bigint', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('bank_last4', 'text', (col) => col.notNull())
    .addColumn('arrival_date', 'timestamptz', (col) => col.notNull())
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await sql`alter table sandbox_payouts add constraint sandbox_payouts_status_check check (status in ('in_transit', 'paid', 'failed'))`.execute(
    db,
  )
  await db.schema.createIndex('sandbox_payouts_account_idx').on('sandbox_payouts').column('account_id').execute()
  await db.schema
    .createTable('sandbox_verification_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('client_secret', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('last_error', 'text')
    .addColumn('pending_outcome', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('sandbox_account_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('sandbox_accounts.id'))
    .addColumn('client_secret', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute()
}

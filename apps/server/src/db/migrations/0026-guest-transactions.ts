import { type Kysely, sql } from 'kysely'

/**
 * Guest transactions (issue 12 #2): a party invited by e-mail claims their
 * role through a link. The link's secret is never stored, only its SHA-256,
 * so a copy of the database claims nothing; `claimed_at` makes it single use.
 * A partner client may invite both parties (its transaction then has no
 * creator user) and authenticates with an API key, of which again only the
 * hash is kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('guest_invitations')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('transaction_id', 'uuid', (col) => col.notNull().references('transactions.id'))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('buyer', 'seller')`))
    .addColumn('email', 'text', (col) => col.notNull())
    // The e-mail's language, kept so that a resent or audited invitation reads the same.
    .addColumn('language', 'text', (col) => col.notNull())
    .addColumn('secret_hash', 'text', (col) => col.notNull().unique())
    .addColumn('claimed_by', 'uuid', (col) => col.references('users.id'))
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addUniqueConstraint('guest_invitations_one_per_role', ['transaction_id', 'role'])
    .execute()
  await db.schema
    .alterTable('transactions')
    .alterColumn('creator_id', (col) => col.dropNotNull())
    .execute()
  await db.schema
    .alterTable('clients')
    .addColumn('api_key_hash', 'text', (col) => col.unique())
    .execute()
}

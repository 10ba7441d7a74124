import { type Kysely, sql } from 'kysely'

/**
 * The embedded sign-in confirms e-mail addresses (DESIGN §2: company and
 * partner privileges need a verified e-mail), as an external issuer does
 * before it says `email_verified: true`. A link carries a random token; only
 * its SHA-256 is stored, it expires, and it is used once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('email_verified_at', 'timestamptz').execute()
  await db.schema
    .createTable('email_verification_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    // The address the link confirms: a link sent before an address change confirms nothing.
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('email_verification_tokens_account_idx').on('email_verification_tokens').column('account_id').execute()
}

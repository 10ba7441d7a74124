import { type Kysely, sql } from 'kysely'

/**
 * Payout bank details (spec §3 Debit account; DESIGN §4): one bank account per
 * user, replaced on update; and the sandbox bank-link provider's tokens.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bank_accounts')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().unique().references('users.id'))
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('scheme', 'text', (col) => col.notNull())
    .addColumn('country', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('account_holder_name', 'text', (col) => col.notNull())
    // The full account number (the IBAN for SEPA). Production would not keep
    // it here: it would be handed to the payment provider, which tokenises it
    // (Stripe external account / Plaid processor token), and only the token
    // and last4 would be stored. Never returned by the API, never logged.
    .addColumn('account_number', 'text', (col) => col.notNull())
    .addColumn('last4', 'text', (col) => col.notNull())
    .addColumn('routing_number', 'text')
    .addColumn('account_type', 'text')
    .addColumn('bank_name', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await sql`alter table bank_accounts add constraint bank_accounts_source_check check (source in ('manual', 'bank_link'))`.execute(db)
  await sql`alter table bank_accounts add constraint bank_accounts_account_type_check check (account_type is null or account_type in ('checking', 'savings'))`.execute(
    db,
  )

  // The sandbox bank-link provider's link and public tokens (kept in the
  // database so that every process shares them, like the payment sandbox).
  await db.schema
    .createTable('sandbox_bank_link_tokens')
    .addColumn('token', 'text', (col) => col.primaryKey())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('link_token', 'text')
    .addColumn('account_id', 'text')
    .addColumn('outcome', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute()
  await sql`alter table sandbox_bank_link_tokens add constraint sandbox_bank_link_tokens_kind_check check (kind in ('link', 'public'))`.execute(
    db,
  )
}

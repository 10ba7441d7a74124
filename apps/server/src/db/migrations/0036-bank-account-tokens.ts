import { type Kysely, sql } from 'kysely'

/**
 * Bank accounts linked through Plaid's processor integration (issue 14 #2):
 * the browser's Plaid Link gives a public token, the server turns it into a
 * Stripe bank-account token (`btok_…`) and hands that to the payment
 * provider, so the full account number never reaches Pactum. Such a row has
 * no account number; a typed one (source `manual`) always has one.
 *
 * The sandbox payment provider remembers the bank-account tokens it has
 * accepted, as Stripe does: a token is good for one use.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('bank_accounts')
    .alterColumn('account_number', (column) => column.dropNotNull())
    .execute()
  await sql`alter table bank_accounts add constraint bank_accounts_number_check check (account_number is not null or source = 'bank_link')`.execute(
    db,
  )

  await db.schema
    .createTable('sandbox_spent_bank_tokens')
    // sha256 of the token: a spent token is useless, but it need not sit here readable either.
    .addColumn('token_sha256', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('spent_at', 'timestamptz', (col) => col.notNull())
    .execute()
}

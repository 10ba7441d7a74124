import { type Kysely, sql } from 'kysely'

/**
 * Issue 34 (docs/decisions/105-providers-as-they-behave.md).
 *
 * `bank_link_items`: a Plaid Item linked for a seller's payouts, kept so it
 * can be removed (`/item/remove`) once the seller replaces the bank account
 * or closes the account. The access token is a secret: it is needed only
 * for that removal and is erased (set null) when the Item is gone. Plaid
 * takes it only together with PLAID_SECRET, which is not in the database.
 * No foreign key to the bank account: the Item outlives the row that a
 * replacement or `eraseUserRecords` deletes (the user row stays, pseudonymised).
 *
 * `tracking_registrations.refusal`: why the tracking API will not follow a
 * parcel (`missing_required_fields`: the courier asks for a detail Pactum
 * does not have), with the fields; the registration job stops retrying
 * then, since the same request cannot succeed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table bank_link_items (
      id uuid primary key,
      user_id uuid not null references users(id),
      provider text not null,
      item_id text not null,
      access_token text,
      bank_account_id uuid not null,
      linked_at timestamptz not null,
      removal_requested_at timestamptz,
      removed_at timestamptz,
      unique (provider, item_id),
      check ((removed_at is null) = (access_token is not null))
    )
  `.execute(db)
  await sql`create index bank_link_items_user_idx on bank_link_items (user_id) where removed_at is null`.execute(db)
  await db.schema
    .alterTable('tracking_registrations')
    .addColumn('refusal', 'text')
    .addColumn('refusal_fields', sql`text[]`)
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tracking_registrations').dropColumn('refusal').dropColumn('refusal_fields').execute()
  await sql`drop table bank_link_items`.execute(db)
}

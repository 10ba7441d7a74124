import { type Kysely, sql } from 'kysely'

/**
 * Issue 34 (docs/decisions/110-payouts-followed-to-the-bank.md).
 *
 * `seller_payouts`: Pactum's own record of each payout from a seller's
 * connected account to their bank, followed from the provider's Connect
 * events (`payout.created/updated/paid/failed/canceled`). One row per
 * provider payout; `last_event_at` is the provider's `created` of the last
 * event applied, so an older one arriving late changes nothing, and a
 * failed or cancelled payout is never moved again.
 *
 * `failure_mailed_at`: when the seller was told what to fix (one e-mail per
 * failed payout). `bank_account_replaced_at`: when the seller replaced the
 * bank account after the failure; the provider's next payout takes the
 * money again (automatic payouts), so the Balance page stops asking.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table seller_payouts (
      id uuid primary key,
      provider text not null,
      payout_id text not null,
      account_id text not null,
      amount bigint not null,
      currency text not null,
      status text not null check (status in ('pending', 'in_transit', 'paid', 'failed', 'canceled')),
      arrival_date timestamptz,
      failure_code text,
      failure_message text,
      automatic boolean not null,
      payout_created timestamptz not null,
      last_event_id text not null,
      last_event_at timestamptz not null,
      failed_at timestamptz,
      failure_mailed_at timestamptz,
      bank_account_replaced_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (provider, payout_id)
    )
  `.execute(db)
  await sql`create index seller_payouts_account_idx on seller_payouts (provider, account_id, payout_created desc)`.execute(db)
  // The catch-up lists events of accounts whose payouts are still moving.
  await sql`create index seller_payouts_open_idx on seller_payouts (provider, account_id) where status in ('pending', 'in_transit')`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table seller_payouts`.execute(db)
}

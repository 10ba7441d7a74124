import { type Kysely, sql } from 'kysely'

/**
 * Issue 34 (docs/decisions/107-daily-reconciliation.md).
 *
 * `reconciliation_days`: one row per UTC day (YYYY-MM-DD as text: the
 * pg driver and PGlite read a `date` differently) compared with the payment
 * provider's balance, with both sides' totals per currency; a re-run of
 * the day replaces it. `reconciliation_differences`: what that comparison
 * found, one row per (day, kind, movement, provider id), so a re-run finds
 * the same row again. An open difference a re-run no longer finds is
 * deleted; an explained one is kept with its reason, who explained it and
 * when (the audit of the explanation).
 *
 * `sandbox_payment_intents.succeeded_at`: when the sandbox's payment
 * reached its balance, the time its balance listing gives the charge
 * (`updated_at` moves again with every refund). Backfilled from
 * `updated_at` for payments that succeeded before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table reconciliation_days (
      day text primary key check (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      provider text not null,
      reconciled_at timestamptz not null,
      totals jsonb not null
    )
  `.execute(db)
  await sql`
    create table reconciliation_differences (
      id uuid primary key,
      day text not null references reconciliation_days(day),
      kind text not null,
      movement text not null,
      provider_id text not null,
      transaction_id uuid,
      ledger_amount bigint,
      ledger_currency text,
      provider_amount bigint,
      provider_currency text,
      status text not null default 'open' check (status in ('open', 'explained')),
      reason text,
      explained_by uuid references users(id),
      explained_at timestamptz,
      found_at timestamptz not null,
      unique (day, kind, movement, provider_id),
      check ((status = 'explained') = (reason is not null and explained_at is not null))
    )
  `.execute(db)
  await sql`alter table sandbox_payment_intents add column succeeded_at timestamptz`.execute(db)
  await sql`update sandbox_payment_intents set succeeded_at = updated_at where status = 'succeeded'`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sandbox_payment_intents drop column succeeded_at`.execute(db)
  await sql`drop table reconciliation_differences`.execute(db)
  await sql`drop table reconciliation_days`.execute(db)
}

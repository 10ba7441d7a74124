import { type Kysely, sql } from 'kysely'

/**
 * Issue 34 (docs/decisions/107-daily-reconciliation.md, "In the audit log").
 *
 * `admin_decisions`: an admin's decision, with its reason, on something that
 * is not a transaction; so far marking a reconciliation difference explained
 * (its row keeps the explanation too; a difference's transaction may be
 * none, and `transaction_events` names a transaction on every row). Its ids
 * come from `transaction_events`' sequence, so that the audit log, both
 * tables' admin rows newest first, pages on one id. An explained difference
 * is never deleted (reconciliation-repository.ts), so the reference holds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table admin_decisions (
      id bigint primary key default nextval('transaction_events_id_seq'),
      decision text not null check (decision in ('explain_difference')),
      admin_user_id uuid not null references users(id),
      reason text not null,
      reconciliation_difference_id uuid not null references reconciliation_differences(id),
      from_status text not null,
      to_status text not null,
      created_at timestamptz not null
    )
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table admin_decisions`.execute(db)
}

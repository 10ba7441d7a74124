import { type Kysely, sql } from 'kysely'

/**
 * Issue 34 (docs/decisions/109-card-disputes.md).
 *
 * `transactions.chargeback`: the card dispute on one of the sale's
 * payments as the state machine keeps it (chargeback.ts: the provider's
 * dispute id, status, amount, reason, evidence deadline, whether it froze
 * held money, the fee booked, what was recovered from the seller), null
 * when there is none. `transactions.fraud_warning`: the provider's early
 * fraud warning and when an admin cleared it. Both JSON, as the case's
 * offers are: only the one writer changes them. The provider's news names
 * the payment, not the transaction (its payments are indexed since 0010
 * and 0018); the dispute id is indexed for the admin's calls.
 *
 * `sandbox_disputes`: the sandbox provider's own disputes (its test card
 * 4000000000000259 and the admin's sandbox action); `sandbox_transfer_reversals`:
 * money taken back from a connected account's transfer. Nothing else reads them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transactions add column chargeback jsonb`.execute(db)
  await sql`alter table transactions add column fraud_warning jsonb`.execute(db)
  await sql`create index transactions_chargeback_id on transactions ((chargeback->>'id')) where chargeback is not null`.execute(db)
  await sql`
    create table sandbox_disputes (
      id text primary key,
      payment_intent_id text not null references sandbox_payment_intents(id),
      amount bigint not null check (amount > 0),
      currency text not null,
      status text not null,
      reason text not null,
      evidence jsonb,
      evidence_due_by timestamptz not null,
      fee_amount bigint not null,
      fee_returned boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )
  `.execute(db)
  await sql`create index sandbox_disputes_payment_intent on sandbox_disputes (payment_intent_id)`.execute(db)
  await sql`
    create table sandbox_transfer_reversals (
      id text primary key,
      transfer_id text not null references sandbox_transfers(id),
      amount bigint not null check (amount > 0),
      created_at timestamptz not null
    )
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sandbox_transfer_reversals`.execute(db)
  await sql`drop table sandbox_disputes`.execute(db)
  await sql`drop index transactions_chargeback_id`.execute(db)
  await sql`alter table transactions drop column fraud_warning`.execute(db)
  await sql`alter table transactions drop column chargeback`.execute(db)
}

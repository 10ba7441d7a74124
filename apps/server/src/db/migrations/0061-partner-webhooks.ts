import { type Kysely, sql } from 'kysely'

/**
 * Issue 35 (docs/decisions/113-partner-webhooks.md).
 *
 * `partner_events`: one row per change of a transaction created under a
 * partner client, written by the engine in the change's own database
 * transaction (the outbox of partner webhooks, and the event feed's source).
 * `sequence` counts the transaction's events from 1; `position` orders the
 * feed. `payload` is the transaction as the API shows it then.
 *
 * `webhook_endpoints`: a client's receivers, with their Standard Webhooks
 * secret (`whsec_…`; the previous one stays valid until
 * `previous_secret_until` after a rotation) and event-type filter (empty:
 * every type). `disabled_at`: no delivery is made until it is enabled again.
 *
 * `webhook_deliveries`: one row per event and endpoint matching it, moved
 * forward by the delivery job (pending → delivered, or failed after three
 * days of attempts). A worker sending one holds `lease_until` on it, not a
 * database transaction, so a slow receiver blocks nobody; the stream of one
 * transaction to one endpoint goes in `sequence` order. `webhook_attempts`
 * keeps each attempt's answer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table partner_events (
      id text primary key,
      position bigserial not null unique,
      client_id text not null references clients (id) on delete cascade,
      transaction_id uuid not null references transactions (id) on delete cascade,
      sequence integer not null,
      type text not null,
      payload jsonb not null,
      created_at timestamptz not null,
      unique (transaction_id, sequence)
    )
  `.execute(db)
  await sql`create index partner_events_feed_idx on partner_events (client_id, position)`.execute(db)
  await sql`create index partner_events_created_idx on partner_events (created_at)`.execute(db)
  await sql`
    create table webhook_endpoints (
      id uuid primary key,
      client_id text not null references clients (id) on delete cascade,
      url text not null,
      event_types text[] not null default '{}',
      secret text not null,
      previous_secret text,
      previous_secret_until timestamptz,
      disabled_at timestamptz,
      disabled_reason text,
      created_at timestamptz not null
    )
  `.execute(db)
  await sql`create index webhook_endpoints_client_idx on webhook_endpoints (client_id)`.execute(db)
  await sql`
    create table webhook_deliveries (
      event_id text not null references partner_events (id) on delete cascade,
      endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
      transaction_id uuid not null,
      sequence integer not null,
      status text not null check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      lease_until timestamptz,
      delivered_at timestamptz,
      created_at timestamptz not null,
      primary key (event_id, endpoint_id)
    )
  `.execute(db)
  await sql`create index webhook_deliveries_stream_idx on webhook_deliveries (endpoint_id, transaction_id, sequence) where status = 'pending'`.execute(
    db,
  )
  await sql`
    create table webhook_attempts (
      id bigserial primary key,
      event_id text not null,
      endpoint_id uuid not null,
      attempted_at timestamptz not null,
      duration_ms integer not null,
      status_code integer,
      error text,
      response_body text,
      foreign key (event_id, endpoint_id) references webhook_deliveries (event_id, endpoint_id) on delete cascade
    )
  `.execute(db)
  await sql`create index webhook_attempts_delivery_idx on webhook_attempts (event_id, endpoint_id)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table webhook_attempts`.execute(db)
  await sql`drop table webhook_deliveries`.execute(db)
  await sql`drop table webhook_endpoints`.execute(db)
  await sql`drop table partner_events`.execute(db)
}

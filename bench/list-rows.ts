import { type Kysely, sql } from 'kysely'
import type { Database } from '../apps/server/src/db/schema.ts'

/**
 * Fills the transactions table for the "My transactions" measurement:
 * `total` copies of one transaction, one in ten belonging to the user who
 * lists, the rest spread over 99 other users, with time-ordered (v7-shaped)
 * ids older than the template's. Written with SQL, not through the API: only
 * the list is being measured, and a million API calls would take an hour.
 * VACUUM ANALYZE after, as autovacuum would have done to a table this size
 * in production: without the visibility map PostgreSQL reckons an index-only
 * scan of a party index as dear as walking the primary key (docs/decisions/074-list-walks-the-party-indexes.md,
 * "The list walks the party indexes").
 */
export async function seedListRows(db: Kysely<Database>, o: { templateId: string; listerId: string; total: number }): Promise<void> {
  const others = (
    await sql<{ id: string }>`
      insert into users (issuer, subject, email)
      select 'bench', 'other-' || n, 'other-' || n || '@example.com' from generate_series(1, 99) n
      returning id`.execute(db)
  ).rows.map((row) => row.id)
  const columns = (
    await sql<{
      column_name: string
    }>`select column_name from information_schema.columns where table_name = 'transactions' and table_schema = current_schema()`.execute(db)
  ).rows.map((row) => row.column_name)
  // verify_code: each copy gets a fresh one from the column's default (decision 114); the template's is unique.
  const copied = columns.filter((column) => !['id', 'join_code', 'seller_id', 'creator_id', 'verify_code'].includes(column))
  const list = sql.join(copied.map((column) => sql.ref(column)))
  const fromTemplate = sql.join(copied.map((column) => sql.ref(`t.${column}`)))
  const newestMs = Date.now() - 60_000
  const batch = 100_000
  for (let first = 1; first <= o.total; first += batch) {
    const last = Math.min(o.total, first + batch - 1)
    await sql`
      insert into transactions (id, join_code, seller_id, creator_id, ${list})
      select
        (lpad(to_hex(${newestMs}::bigint - ${o.total}::bigint + g.n), 12, '0') || '7' || substr(g.r, 1, 3) || '8' || substr(g.r, 4, 15))::uuid,
        null, g.owner, g.owner, ${fromTemplate}
      from (
        select n, md5(random()::text || n::text) as r,
          case when n % 10 = 0 then ${o.listerId}::uuid else (${others}::uuid[])[1 + n % 99] end as owner
        from generate_series(${first}::int, ${last}::int) n
      ) g, transactions t
      where t.id = ${o.templateId}`.execute(db)
  }
  await sql`vacuum analyze transactions`.execute(db)
}

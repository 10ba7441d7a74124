import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/database.ts'
import { createTestDatabase } from '../testing/test-database.ts'

let database: Database
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** The plan PostgreSQL picks when a sequential scan is its last resort: an index, if one serves the query. */
async function planWithoutSeqScans(query: string): Promise<string> {
  return database.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx)
    const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(query)}`.execute(trx)
    return rows.map((row) => row['QUERY PLAN']).join('\n')
  })
}

describe("the ledger's indexes", () => {
  // Every receipt and the admin console's transaction page read a sale's entries so. With only the
  // partial indexes (holds, resolutions) each read went through the whole ledger (issue 36, migration 0065).
  it("reads one sale's entries through an index, not the whole ledger", async () => {
    const plan = await planWithoutSeqScans("select * from ledger_entries where transaction_id = '00000000-0000-0000-0000-000000000001'")
    expect(plan).toContain('ledger_entries_transaction_idx')
    expect(plan).not.toMatch(/Seq Scan/)
  })

  it("reads an entry's postings through an index", async () => {
    const plan = await planWithoutSeqScans(
      "select * from ledger_postings where entry_id in ('00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002')",
    )
    expect(plan).not.toMatch(/Seq Scan/)
  })
})

import { randomUUID } from 'node:crypto'
import type { CurrencyTotals, Difference } from '@pactum/domain/reconciliation'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

export interface StoredDay {
  day: string
  provider: string
  reconciledAt: Date
  totals: { ledger: CurrencyTotals[]; provider: CurrencyTotals[] }
}

const keyOf = (difference: { kind: string; movement: string; provider_id: string }) =>
  `${difference.kind}|${difference.movement}|${difference.provider_id}`

/**
 * Records a day's comparison, replacing an earlier run of the same day in
 * one database transaction: a difference found again keeps its row (and
 * its explanation), an open one no longer found is deleted, an explained
 * one is kept whatever this run found.
 */
export async function recordDay(db: Kysely<Database>, run: StoredDay & { differences: readonly Difference[] }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const totals = JSON.stringify(run.totals)
    await trx
      .insertInto('reconciliation_days')
      .values({ day: run.day, provider: run.provider, reconciled_at: run.reconciledAt, totals })
      .onConflict((conflict) => conflict.column('day').doUpdateSet({ provider: run.provider, reconciled_at: run.reconciledAt, totals }))
      .execute()
    const existing = await trx
      .selectFrom('reconciliation_differences')
      .select(['id', 'kind', 'movement', 'provider_id', 'status'])
      .where('day', '=', run.day)
      .forUpdate()
      .execute()
    const found = new Set(run.differences.map((difference) => keyOf({ ...difference, provider_id: difference.providerId })))
    const gone = existing.filter((row) => row.status === 'open' && !found.has(keyOf(row))).map((row) => row.id)
    if (gone.length > 0) await trx.deleteFrom('reconciliation_differences').where('id', 'in', gone).execute()
    const known = new Set(existing.map(keyOf))
    const fresh = run.differences.filter((difference) => !known.has(keyOf({ ...difference, provider_id: difference.providerId })))
    if (fresh.length === 0) return
    await trx
      .insertInto('reconciliation_differences')
      .values(
        fresh.map((difference) => ({
          id: randomUUID(),
          day: run.day,
          kind: difference.kind,
          movement: difference.movement,
          provider_id: difference.providerId,
          transaction_id: difference.transactionId,
          ledger_amount: difference.ledger?.amount ?? null,
          ledger_currency: difference.ledger?.currency ?? null,
          provider_amount: difference.provider?.amount ?? null,
          provider_currency: difference.provider?.currency ?? null,
          found_at: run.reconciledAt,
        })),
      )
      .execute()
  })
}

function differences(db: Kysely<Database>) {
  return db
    .selectFrom('reconciliation_differences as d')
    .leftJoin('users as u', 'u.id', 'd.explained_by')
    .selectAll('d')
    .select('u.email as explained_by_email')
}

export function findDifference(db: Kysely<Database>, id: string) {
  return differences(db).where('d.id', '=', id).executeTakeFirstOrThrow()
}

export async function findDay(db: Kysely<Database>, day: string) {
  const stored = await db.selectFrom('reconciliation_days').selectAll().where('day', '=', day).executeTakeFirst()
  const found = await differences(db).where('d.day', '=', day).orderBy('d.found_at').orderBy('d.kind').orderBy('d.provider_id').execute()
  return { stored, differences: found }
}

export type DifferenceRow = Awaited<ReturnType<typeof findDay>>['differences'][number]

/**
 * Marks one open difference explained, and writes the decision to the admin
 * audit log in the same database transaction; answers what it found: none,
 * already explained, or explained now.
 */
export async function explainDifference(
  db: Kysely<Database>,
  input: { id: string; reason: string; adminUserId: string; at: Date },
): Promise<'not_found' | 'already_explained' | 'explained'> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('reconciliation_differences')
      .select('status')
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst()
    if (!row) return 'not_found'
    if (row.status === 'explained') return 'already_explained'
    await trx
      .updateTable('reconciliation_differences')
      .set({ status: 'explained', reason: input.reason, explained_by: input.adminUserId, explained_at: input.at })
      .where('id', '=', input.id)
      .execute()
    await trx
      .insertInto('admin_decisions')
      .values({
        decision: 'explain_difference',
        admin_user_id: input.adminUserId,
        reason: input.reason,
        reconciliation_difference_id: input.id,
        from_status: 'open',
        to_status: 'explained',
        created_at: input.at,
      })
      .execute()
    return 'explained'
  })
}

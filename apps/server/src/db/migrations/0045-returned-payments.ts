import { type Kysely, sql } from 'kysely'

/**
 * The payments a transaction sent straight back without holding them
 * (docs/decisions/007-every-refund-is-on-the-sale.md "Every refund is on the sale"): the state machine
 * records each once, whether the webhook or the browser reports it first,
 * and a late report of one can no longer be held.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('transactions')
    .addColumn('returned_payment_intent_ids', sql`text[]`, (col) => col.notNull().defaultTo(sql`'{}'::text[]`))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').dropColumn('returned_payment_intent_ids').execute()
}

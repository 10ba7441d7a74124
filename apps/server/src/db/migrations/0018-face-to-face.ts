import { type Kysely, sql } from 'kysely'

/**
 * Face-to-face sales live in the transactions table beside online ones (one
 * list, one keyset): their deposit uses the common price, charge and payment
 * columns; the remainder, the handover rule and the extra state stamps get
 * columns of their own. A face-to-face sale holds twice (deposit, then
 * remainder), so the one-hold rule becomes one hold per part.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let table = db.schema
    .alterTable('transactions')
    .addColumn('total_price', 'bigint')
    .addColumn('remainder_charge', 'bigint')
    .addColumn('remainder_charge_seller', 'bigint')
    .addColumn('remainder_charge_calculator_version', 'text')
    .addColumn('remainder_payment_intent_id', 'text')
    .addColumn('seller_confirms_handover', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('cancellation_description', 'text')
  for (const stamp of [
    'deposit_paid',
    'deposit_accepted',
    'priced',
    'remainder_paid',
    'remainder_skipped',
    'seller_handover_confirmed',
    'buyer_handover_confirmed',
    'cancelled_with_deposit',
    'deposit_refunded',
  ]) {
    table = table.addColumn(stamp, 'timestamptz')
  }
  await table.execute()
  await db.schema
    .alterTable('transactions')
    .addCheckConstraint(
      'transactions_remainder_non_negative',
      sql`coalesce(total_price, 0) >= 0 and coalesce(remainder_charge, 0) >= 0 and coalesce(remainder_charge_seller, 0) >= 0`,
    )
    .execute()
  await db.schema
    .createIndex('transactions_remainder_payment_intent_idx')
    .on('transactions')
    .column('remainder_payment_intent_id')
    .execute()

  // Partner clients (spec §1): only what face-to-face reads so far; the
  // partner-client work adds colours, routes and the rest.
  await db.schema
    .createTable('clients')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('show_seller_confirm_handover', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute()

  await db.schema
    .alterTable('ledger_entries')
    .addColumn('part', 'text', (col) => col.notNull().defaultTo('payment'))
    .execute()
  await db.schema.dropIndex('ledger_entries_one_hold').execute()
  await db.schema
    .createIndex('ledger_entries_one_hold_per_part')
    .unique()
    .on('ledger_entries')
    .columns(['transaction_id', 'part'])
    .where(sql.ref('kind'), '=', 'hold')
    .execute()
}

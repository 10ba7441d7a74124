import type { LedgerMovement } from '@pactum/domain/reconciliation'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * What the ledger says moved through the provider, with the provider's id
 * Pactum recorded for each (decision 107):
 * - a charge: a `hold` entry (what reached escrow), or money that came in
 *   and went straight back (`refund_unheld`, its outbox refund names the
 *   payment); the payment intent is the transaction's for that part;
 * - a refund or a transfer: the outbox row that made it, written in the
 *   same database transaction as its ledger entry, whose
 *   `provider_reference` is the provider's id once it was sent.
 * - a card dispute: its `dispute_opened` and `dispute_won` entries, by the
 *   dispute's id the transaction keeps.
 * Movements dated in the range, and those of any date whose provider id is
 * in `providerIds` (a payment that reached the provider at 23:59 is
 * booked when its webhook arrives, perhaps after midnight).
 */
export async function ledgerMovements(
  db: Kysely<Database>,
  range: { from: Date; to: Date },
  providerIds: readonly string[],
): Promise<LedgerMovement[]> {
  const ids = sql`${sql.val([...providerIds])}::text[]`
  const inRange = (column: string) => sql<boolean>`(${sql.ref(column)} >= ${range.from} and ${sql.ref(column)} < ${range.to})`
  const holds = await sql<{ transaction_id: string; provider_id: string | null; amount: string | number; currency: string }>`
    select e.transaction_id, h.provider_id, p.amount, p.currency
    from ledger_entries e
    join transactions t on t.id = e.transaction_id
    join ledger_postings p on p.entry_id = e.id and p.account = 'escrow:' || e.transaction_id::text
    cross join lateral (
      select case when e.part = 'remainder' then t.remainder_payment_intent_id else t.payment_intent_id end as provider_id
    ) h
    where e.kind = 'hold' and (${inRange('e.created_at')} or h.provider_id = any(${ids}))
  `.execute(db)
  const sent = await sql<{
    transaction_id: string
    action: string
    idempotency_key: string
    provider_reference: string | null
    payload: { amount: number; currency: string; payment_intent_id: string | null }
    created_at: Date
    in_range: boolean
    charge_in_range: boolean
  }>`
    select transaction_id, action, idempotency_key, provider_reference, payload,
      ${inRange('sent_at')} or provider_reference = any(${ids}) as in_range,
      ${inRange('created_at')} or payload->>'payment_intent_id' = any(${ids}) as charge_in_range
    from outbox
    where action in ('refund', 'transfer', 'reverse_transfer')
      and ((status = 'sent' and (${inRange('sent_at')} or provider_reference = any(${ids})))
        or (idempotency_key like '%:refund-unheld:%' and (${inRange('created_at')} or payload->>'payment_intent_id' = any(${ids}))))
  `.execute(db)
  const movements: LedgerMovement[] = []
  for (const hold of holds.rows) {
    if (hold.provider_id === null) continue
    movements.push({
      kind: 'charge',
      providerId: hold.provider_id,
      transactionId: hold.transaction_id,
      amount: Number(hold.amount),
      currency: hold.currency,
    })
  }
  for (const row of sent.rows) {
    const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as typeof row.payload) : row.payload
    const returned = row.idempotency_key.includes(':refund-unheld:')
    if (returned && row.charge_in_range && payload.payment_intent_id) {
      movements.push({
        kind: 'charge',
        providerId: payload.payment_intent_id,
        transactionId: row.transaction_id,
        amount: payload.amount,
        currency: payload.currency,
      })
    }
    if (row.in_range && row.provider_reference) {
      movements.push({
        kind: row.action === 'refund' ? 'refund' : row.action === 'reverse_transfer' ? 'transfer_reversal' : 'transfer',
        providerId: row.provider_reference,
        transactionId: row.transaction_id,
        amount: payload.amount,
        currency: payload.currency,
      })
    }
  }
  // A card dispute (decision 109): its withdrawal (`dispute_opened`) and reinstatement (`dispute_won`) by the dispute's id.
  const disputes = await sql<{ transaction_id: string; kind: string; provider_id: string; amount: string | number; currency: string }>`
    select e.transaction_id, e.kind, t.chargeback->>'id' as provider_id, p.amount, p.currency
    from ledger_entries e
    join transactions t on t.id = e.transaction_id
    join ledger_postings p on p.entry_id = e.id and p.account = 'disputed:' || e.transaction_id::text
    where e.kind in ('dispute_opened', 'dispute_won') and t.chargeback is not null
      and (${inRange('e.created_at')} or t.chargeback->>'id' = any(${ids}))
  `.execute(db)
  for (const row of disputes.rows) {
    movements.push({
      kind: row.kind === 'dispute_opened' ? 'dispute' : 'dispute_reversal',
      providerId: row.provider_id,
      transactionId: row.transaction_id,
      amount: Math.abs(Number(row.amount)),
      currency: row.currency,
    })
  }
  return movements
}

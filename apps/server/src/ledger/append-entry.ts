import { randomUUID } from 'node:crypto'
import type { LedgerEntryKind as DomainEntryKind } from '@pactum/domain/ledger-rules'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

/** The domain's kinds (ledger-rules.ts) and `reversal`, a correction. */
export type LedgerEntryKind = DomainEntryKind | 'reversal'

export interface LedgerPosting {
  account: string
  /** Signed, in minor units: what the account gains (+) or gives (−). */
  amount: number
  currency: string
}

export class UnbalancedEntryError extends Error {}

/**
 * Appends one journal entry. It must balance per currency; entries are never
 * updated or deleted (a correction is a new `reversal` entry with a reason).
 * Call it inside the database transaction of the state change it records.
 */
export async function appendLedgerEntry(
  trx: Kysely<Database>,
  entry: { transactionId: string; kind: LedgerEntryKind; part?: string; reason: string; postings: LedgerPosting[]; at: Date },
): Promise<string> {
  assertBalanced(entry.postings)
  const id = randomUUID()
  await trx
    .insertInto('ledger_entries')
    .values({
      id,
      transaction_id: entry.transactionId,
      kind: entry.kind,
      part: entry.part ?? 'payment',
      reason: entry.reason,
      created_at: entry.at,
    })
    .execute()
  await trx
    .insertInto('ledger_postings')
    .values(entry.postings.map((posting) => ({ entry_id: id, ...posting })))
    .execute()
  return id
}

function assertBalanced(postings: LedgerPosting[]): void {
  if (postings.length < 2) throw new UnbalancedEntryError('a journal entry needs at least two postings')
  const sums = new Map<string, number>()
  for (const posting of postings) {
    if (!Number.isSafeInteger(posting.amount)) throw new UnbalancedEntryError(`amount ${posting.amount} is not an integer`)
    sums.set(posting.currency, (sums.get(posting.currency) ?? 0) + posting.amount)
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0) throw new UnbalancedEntryError(`postings in ${currency} sum to ${sum}, not zero`)
  }
}

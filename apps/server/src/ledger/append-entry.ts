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

export interface LedgerEntry {
  transactionId: string
  kind: LedgerEntryKind
  part?: string
  reason: string
  postings: LedgerPosting[]
  at: Date
}

/**
 * Appends one journal entry. It must balance per currency; entries are never
 * updated or deleted (a correction is a new `reversal` entry with a reason).
 * Call it inside the database transaction of the state change it records.
 */
export async function appendLedgerEntry(trx: Kysely<Database>, entry: LedgerEntry): Promise<string> {
  const id = randomUUID()
  await appendLedgerEntries(trx, [{ ...entry, id }])
  return id
}

/**
 * Appends many entries, each checked to balance before anything is written,
 * with two statements whatever their number (the engine's writer applies a
 * batch of due events at once: write-plans.ts).
 */
export async function appendLedgerEntries(trx: Kysely<Database>, entries: Array<LedgerEntry & { id: string }>): Promise<void> {
  if (entries.length === 0) return
  for (const entry of entries) assertBalanced(entry.postings)
  await trx
    .insertInto('ledger_entries')
    .values(
      entries.map((entry) => ({
        id: entry.id,
        transaction_id: entry.transactionId,
        kind: entry.kind,
        part: entry.part ?? 'payment',
        reason: entry.reason,
        created_at: entry.at,
      })),
    )
    .execute()
  await trx
    .insertInto('ledger_postings')
    .values(entries.flatMap((entry) => entry.postings.map((posting) => ({ entry_id: entry.id, ...posting }))))
    .execute()
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
